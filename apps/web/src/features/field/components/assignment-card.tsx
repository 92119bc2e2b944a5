import { type FieldAssignmentDto, formatDate, formatMoney } from "@tranche/domain";
import { ChevronRightIcon, HardDriveDownloadIcon } from "lucide-react";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import type { PositionState } from "../hooks/use-position";
import { SiteLine } from "./site-line";
import { UrgencyBadge } from "./urgency-badge";

/** One open assignment in the field list: why it is urgent, where the site is, and the way into its visit. */
export function AssignmentCard({
  assignment: a,
  position,
  kept,
}: {
  assignment: FieldAssignmentDto;
  position: PositionState;
  kept: boolean;
}) {
  return (
    <li className="grid gap-3 rounded-lg border bg-white p-4 shadow-xs" data-testid="assignment">
      <div className="flex flex-wrap items-center gap-2">
        <UrgencyBadge urgency={a.urgency} />
        <MilestoneStatusBadge status={a.status} />
        {kept ? (
          <span className="inline-flex items-center gap-1 text-xs text-slate-600">
            <HardDriveDownloadIcon className="size-3.5" aria-hidden /> On this device
          </span>
        ) : null}
      </div>
      <div>
        <h2 className="text-base font-semibold text-slate-900">
          <Link to={`/field/milestones/${a.milestoneId}`} className="hover:underline">
            {a.title}
          </Link>
        </h2>
        <p className="text-sm text-slate-600">
          {a.projectName} · due {formatDate(a.dueDate)} · {formatMoney(a.openAmount, a.currency)}
        </p>
      </div>
      <SiteLine site={a.site} position={position} location={a.location} />
      <Button asChild variant="default" size="sm" className="justify-self-start">
        {/* Its name starts with what it shows, and says which of many alike ("Foundations") it opens. */}
        <Link to={`/field/milestones/${a.milestoneId}`} aria-label={`Open assignment: ${a.title}, ${a.projectName}`}>
          Open assignment <ChevronRightIcon aria-hidden />
        </Link>
      </Button>
    </li>
  );
}
