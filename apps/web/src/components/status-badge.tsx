import {
  formatStatus,
  type MilestoneStatus,
  type ProjectStatus,
  RELEASE_STATUS_LABELS,
  type ReleaseStatus,
} from "@tranche/domain";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

// The badge colours of docs/domain.md "Figures and formats". Text shades are dark enough for AA contrast on their
// tints.
const PROJECT_COLOURS: Record<string, string> = {
  verified: "border-green-200 bg-green-100 text-green-800",
  funded: "border-blue-200 bg-blue-100 text-blue-800",
  pending_verification: "border-yellow-200 bg-yellow-100 text-yellow-800",
  at_risk: "border-red-200 bg-red-100 text-red-800",
};

const MILESTONE_COLOURS: Record<string, string> = {
  pending: "border-yellow-200 bg-yellow-100 text-yellow-800",
  in_verification: "border-blue-200 bg-blue-100 text-blue-800",
  verified: "border-green-200 bg-green-100 text-green-800",
  delayed: "border-orange-200 bg-orange-100 text-orange-800",
  rejected: "border-red-200 bg-red-100 text-red-800",
};

const RELEASE_COLOURS: Record<ReleaseStatus, string> = {
  instructed: "border-blue-200 bg-blue-100 text-blue-800",
  settled: "border-green-200 bg-green-100 text-green-800",
  failed: "border-red-200 bg-red-100 text-red-800",
  cancelled: "border-slate-300 bg-slate-100 text-slate-700",
};

const OTHER = "border-slate-200 bg-slate-100 text-slate-700";

export function ProjectStatusBadge({ status, className }: { status: ProjectStatus | string; className?: string }) {
  return <Badge className={cn(PROJECT_COLOURS[status] ?? OTHER, className)}>{formatStatus(status)}</Badge>;
}

export function MilestoneStatusBadge({ status, className }: { status: MilestoneStatus | string; className?: string }) {
  return <Badge className={cn(MILESTONE_COLOURS[status] ?? OTHER, className)}>{formatStatus(status)}</Badge>;
}

/** A release: Instructed (sent to the custodian), Settled (paid), Failed, Cancelled. */
export function ReleaseStatusBadge({ status, className }: { status: ReleaseStatus; className?: string }) {
  return (
    <Badge data-testid="release-status" className={cn(RELEASE_COLOURS[status] ?? OTHER, className)}>
      {RELEASE_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}
