import { Suspense } from "react";
import { Preloaded, preloadable } from "@/app/lazy-route";
import { Skeleton } from "@/components/ui/feedback";
import { useSession } from "@/features/auth";

// Recharts is large: it loads with this chunk, only on the screens that draw charts (which start it early).
const { entry: charts, preload } = preloadable(() => import("./analytics-charts"));
export const preloadCharts = preload;

/** Capital, milestone and upcoming-release charts for investors, admins and owners (their own projects). */
export function ReportCharts() {
  const { data: user } = useSession();
  if (!user || user.role === "verifier" || user.role === null) return null;
  return (
    <section aria-label="Charts" className="mb-8">
      <Suspense fallback={<Skeleton className="h-72" />}>
        <Preloaded entry={charts} props={{}} />
      </Suspense>
    </section>
  );
}

/** The verification turnaround distribution, for admins on /verifiers. */
export function VerifierTurnaround() {
  const { data: user } = useSession();
  if (user?.role !== "admin") return null;
  return (
    <section aria-label="Turnaround" className="mb-8">
      <Suspense fallback={<Skeleton className="h-72" />}>
        <Preloaded entry={charts} props={{ turnaround: true }} />
      </Suspense>
    </section>
  );
}
