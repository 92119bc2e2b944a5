import { Navigate, useLocation } from "react-router";
import { Spinner } from "@/components/ui/feedback";
import { useSession } from "@/features/auth/api/session";
import { AppLayout } from "../layouts/app-layout";

/** Protected routes: a loading indicator while the session resolves, /login when signed out. */
export default function AppShell() {
  const { data: user, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <Spinner className="min-h-screen w-full" label="Loading your session" />;
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <AppLayout user={user} />;
}
