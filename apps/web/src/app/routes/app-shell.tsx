import { Navigate, useLocation } from "react-router";
import { Spinner } from "@/components/ui/feedback";
import { useSession } from "@/features/auth/api/session";
import { loginPath } from "@/lib/next-path";
import { AppLayout } from "../layouts/app-layout";

/** Protected routes: a loading indicator while the session resolves, /login when signed out. */
export default function AppShell() {
  const { data: user, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <Spinner className="min-h-screen w-full" label="Loading your session" />;
  if (!user) return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  return <AppLayout user={user} />;
}
