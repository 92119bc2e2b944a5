import { Navigate, useSearchParams } from "react-router";
import { Spinner } from "@/components/ui/feedback";
import { useSession } from "@/features/auth/api/session";
import { LoginPage } from "@/features/auth/components/login-page";
import { useDocumentTitle } from "@/lib/document-title";
import { safeNextPath } from "@/lib/next-path";

/** /login is for signed-out visitors only; a signed-in user goes to the page asked for, else the dashboard. */
export default function LoginRoute() {
  const { data: user, isPending } = useSession();
  const [params] = useSearchParams();
  useDocumentTitle("Sign in");
  if (isPending) return <Spinner className="min-h-[50vh] w-full" label="Loading your session" />;
  if (user) return <Navigate to={safeNextPath(params.get("next")) ?? "/dashboard"} replace />;
  return <LoginPage />;
}
