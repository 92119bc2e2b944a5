import { Navigate } from "react-router";
import { Spinner } from "@/components/ui/feedback";
import { useSession } from "@/features/auth/api/session";
import { LoginPage } from "@/features/auth/components/login-page";

/** /login is for signed-out visitors only; a signed-in user goes to the dashboard. */
export default function LoginRoute() {
  const { data: user, isPending } = useSession();
  if (isPending) return <Spinner className="min-h-[50vh] w-full" label="Loading your session" />;
  if (user) return <Navigate to="/dashboard" replace />;
  return <LoginPage />;
}
