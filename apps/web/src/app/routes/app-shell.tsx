import { useRef } from "react";
import { Navigate, useLocation } from "react-router";
import { Spinner } from "@/components/ui/feedback";
import { useSession } from "@/features/auth/api/session";
import { loginPath } from "@/lib/next-path";
import { AppLayout } from "../layouts/app-layout";

/** Protected routes: a loading indicator while the session resolves, /login when signed out. */
export default function AppShell() {
  const { data: user, isPending } = useSession();
  const location = useLocation();
  // Signing out here goes to a plain /login; arriving signed out remembers the page asked for.
  const signedIn = useRef(false);
  if (user) signedIn.current = true;
  if (isPending) return <Spinner className="min-h-screen w-full" label="Loading your session" />;
  if (!user) {
    return <Navigate to={signedIn.current ? "/login" : loginPath(`${location.pathname}${location.search}`)} replace />;
  }
  return <AppLayout user={user} />;
}
