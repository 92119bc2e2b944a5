import { useEffect, useRef } from "react";
import { Link, Navigate, useLocation } from "react-router";
import { Spinner } from "@/components/ui/feedback";
import { useSession } from "@/features/auth/api/session";
import { useOnline } from "@/features/field/hooks/use-online";
import { loginPath } from "@/lib/next-path";
import { AppLayout } from "../layouts/app-layout";

/**
 * Protected routes: a loading indicator while the session resolves, /login when signed out. Opened with no
 * connection (the service worker's shell), the field view is where a verifier can work: it is offered.
 */
export default function AppShell() {
  const { data: user, isPending } = useSession();
  const location = useLocation();
  const online = useOnline();
  // Signing out here goes to a plain /login; arriving signed out remembers the page asked for.
  const signedIn = useRef(false);
  if (user) signedIn.current = true;
  // The installable app's service worker: registered from signed-in pages only, never from the public site. A push
  // subscription the browser has is sent again for this session (the server ends it with the session before).
  const userId = user?.id;
  useEffect(() => {
    if (userId) void import("@/lib/pwa").then((pwa) => pwa.resendPushSubscription());
  }, [userId]);
  if (isPending && !online) {
    return (
      <main className="mx-auto grid min-h-screen max-w-md content-center gap-3 p-6 text-sm text-slate-700">
        <h1 className="text-xl font-semibold text-slate-900">No connection</h1>
        <p>This page needs a connection. Site visits kept on this device open in the field view.</p>
        <Link to="/field" className="font-medium text-blue-700 hover:underline">
          Open the field view
        </Link>
      </main>
    );
  }
  if (isPending) return <Spinner className="min-h-screen w-full" label="Loading your session" />;
  if (!user) {
    return <Navigate to={signedIn.current ? "/login" : loginPath(`${location.pathname}${location.search}`)} replace />;
  }
  return <AppLayout user={user} />;
}
