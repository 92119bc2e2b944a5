import { useQuery } from "@tanstack/react-query";
import type { UserDto } from "@tranche/domain";
import { ArrowLeftIcon, WifiIcon, WifiOffIcon } from "lucide-react";
import { useEffect } from "react";
import { Link, Navigate, Outlet, useLocation } from "react-router";
import { Spinner } from "@/components/ui/feedback";
import { SecondFactorPrompt } from "@/features/account/components/second-factor-prompt";
import { useSession } from "@/features/auth/api/session";
import { useOnline } from "@/features/field/hooks/use-online";
import { lastPerson, rememberPerson } from "@/features/field/store/field-store";
import { loginPath } from "@/lib/next-path";
import { Logo } from "../layouts/brand";

/** What the field pages get from their shell: who is working, and whether that came from the device. */
export interface FieldContext {
  user: UserDto;
  /** The session could not be asked for (no connection): the person last signed in on this device. */
  fromDevice: boolean;
}

/**
 * The field view's shell (/field…): phone-first, and it opens with no signal. Online it is the signed-in app's
 * session as everywhere; offline the session cannot be asked for, so it works for the person last signed in on this
 * device, from what the device kept. It registers the service worker that makes the app installable.
 */
export default function FieldShell() {
  const online = useOnline();
  const session = useSession();
  const location = useLocation();
  const device = useQuery({
    queryKey: ["field", "person"],
    queryFn: () => lastPerson().catch(() => null),
    networkMode: "always",
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    if (session.data) void rememberPerson(session.data).catch(() => undefined);
  }, [session.data]);
  useEffect(() => {
    void import("@/lib/pwa").then((pwa) => pwa.registerServiceWorker());
  }, []);
  // Signed in (not the device's remembered person while offline): its push subscription is sent for this session.
  const signedInId = session.data?.id;
  useEffect(() => {
    if (signedInId) void import("@/lib/pwa").then((pwa) => pwa.resendPushSubscription());
  }, [signedInId]);

  if (session.data === null) return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  const offline = !online || session.isError;
  const user = session.data ?? (offline ? device.data : undefined);
  if (!user) {
    if (offline && device.isSuccess) {
      return (
        <FieldFrame online={online}>
          <div className="rounded-lg border bg-white p-5 text-sm text-slate-700">
            <h1 className="text-lg font-semibold text-slate-900">No connection</h1>
            <p className="mt-2">
              This device has no field data yet. Sign in and open your assignments once with a connection; they are then
              kept on this device for visits with no signal.
            </p>
          </div>
        </FieldFrame>
      );
    }
    return <Spinner className="min-h-screen w-full" label="Loading your session" />;
  }
  if (user.role !== "verifier") {
    return (
      <FieldFrame online={online}>
        <div className="rounded-lg border bg-white p-5 text-sm text-slate-700">
          <h1 className="text-lg font-semibold text-slate-900">The field view is for verifiers</h1>
          <p className="mt-2">It lists a verifier's site visits. Your work is on the dashboard.</p>
          <Link to="/dashboard" className="mt-3 inline-block font-medium text-blue-700 hover:underline">
            Go to the dashboard
          </Link>
        </div>
      </FieldFrame>
    );
  }
  const context: FieldContext = { user, fromDevice: !session.data };
  return (
    <FieldFrame online={online}>
      {session.data ? <SecondFactorPrompt /> : null}
      <Outlet context={context} />
    </FieldFrame>
  );
}

function FieldFrame({ online, children }: { online: boolean; children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="sticky top-0 z-30 bg-navy-950 text-white">
        {/* Every part keeps to one line; under 380 px the way back shows its arrow only (its name stays for
            screen readers), so the bar fits a 320 px phone. */}
        <div className="mx-auto flex h-14 max-w-2xl items-center gap-2 whitespace-nowrap px-4 min-[380px]:gap-3 [&>*]:shrink-0">
          <Logo inverted />
          <span className="text-sm font-medium text-slate-300">Field</span>
          <span
            className={`ml-auto inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold ${
              online ? "bg-emerald-500/15 text-emerald-200" : "bg-amber-400/20 text-amber-100"
            }`}
            role="status"
            aria-live="polite"
          >
            {online ? <WifiIcon className="size-3.5" aria-hidden /> : <WifiOffIcon className="size-3.5" aria-hidden />}
            {online ? "Online" : "Offline"}
          </span>
          {online ? (
            <Link
              to="/dashboard"
              className="inline-flex items-center gap-1 rounded-md px-2 py-1.5 text-xs font-medium text-slate-200 hover:bg-white/10"
            >
              <ArrowLeftIcon className="size-3.5" aria-hidden />
              <span className="max-[379px]:sr-only">Dashboard</span>
            </Link>
          ) : null}
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-2xl px-4 py-5 pb-16">
        {children}
      </main>
    </div>
  );
}
