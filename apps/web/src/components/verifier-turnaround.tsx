import type { VerifierTurnaroundDto } from "@tranche/domain";
import { AlertTriangleIcon } from "lucide-react";
import { cn } from "@/lib/utils";

/** Hours as a reader thinks of them: "5 h" under two days, "3.2 days" beyond. */
export function formatTurnaround(hours: number | null): string {
  if (hours === null) return "—";
  if (hours < 48) return `${hours < 10 ? hours.toFixed(1).replace(/\.0$/, "") : Math.round(hours)} h`;
  return `${(hours / 24).toFixed(1).replace(/\.0$/, "")} days`;
}

/** A verifier's turnaround: median and 90th percentile from start to decision, open and overdue verifications. */
export function VerifierTurnaround({
  turnaround,
  compact = false,
}: {
  turnaround: VerifierTurnaroundDto;
  compact?: boolean;
}) {
  const { medianHours, p90Hours, decided, open, overdue, slaDays } = turnaround;
  const overdueTitle = `Open longer than ${slaDays} ${slaDays === 1 ? "day" : "days"}`;
  return (
    <dl className={cn("grid grid-cols-2 gap-2 text-sm", compact ? "mt-2" : "border-t pt-3")} aria-label="Turnaround">
      <div>
        <dt className="text-muted-foreground">Median turnaround</dt>
        <dd className="font-semibold text-slate-900" title={`Over ${decided} decided verifications`}>
          {formatTurnaround(medianHours)}
        </dd>
      </div>
      <div>
        <dt className="text-muted-foreground">90th percentile</dt>
        <dd className="font-semibold text-slate-900">{formatTurnaround(p90Hours)}</dd>
      </div>
      <div>
        <dt className="text-muted-foreground">Open</dt>
        <dd className="font-semibold text-slate-900">{open}</dd>
      </div>
      <div>
        <dt className="text-muted-foreground" title={overdueTitle}>
          Overdue
        </dt>
        <dd
          className={cn("flex items-center gap-1 font-semibold", overdue > 0 ? "text-red-700" : "text-slate-900")}
          data-testid="verifier-overdue"
        >
          {overdue > 0 ? <AlertTriangleIcon className="size-4" aria-hidden /> : null}
          {overdue}
          <span className="sr-only">{overdueTitle.toLowerCase()}</span>
        </dd>
      </div>
    </dl>
  );
}
