import { formatLongDate, formatMoney, type MilestoneDetailDto, type ReleaseDto } from "@tranche/domain";
import { CheckCircle2Icon, CircleIcon, XCircleIcon } from "lucide-react";
import { cn } from "@/lib/utils";

/** The verifier's name, or a stand-in when it is not known. */
export function verifierLabel(milestone: Pick<MilestoneDetailDto, "verifierId" | "verifierName">): string {
  if (milestone.verifierName) return milestone.verifierName;
  return milestone.verifierId ? "Assigned Verifier" : "Unknown Verifier";
}

interface Step {
  title: string;
  detail: string;
  state: "done" | "failed" | "todo";
}

/** The fourth step: the release's own state once there is one (Instructed, Settled, Failed, Cancelled). */
function capitalStep(milestone: MilestoneDetailDto): Step {
  const { release, status } = milestone;
  const title = "Capital Disbursed";
  if (!release) {
    const detail =
      status === "verified"
        ? "Pending"
        : status === "rejected"
          ? "Withheld until the milestone is revised and verified"
          : "Awaiting verification";
    return { title, detail, state: "todo" };
  }
  const step = latestReleaseStep(release, title);
  const count = milestone.releases.length;
  return count > 1 ? { ...step, detail: `${step.detail} (the latest of ${count} releases)` } : step;
}

function latestReleaseStep(release: ReleaseDto, title: string): Step {
  const amount = formatMoney(release.amount, release.currency);
  switch (release.status) {
    case "settled":
      return {
        title,
        detail: `${amount} settled on ${formatLongDate(release.settlement?.settledAt ?? release.updatedAt)}`,
        state: "done",
      };
    case "instructed":
      return {
        title,
        detail: `${amount} released on ${formatLongDate(release.instructedAt)}; awaiting the custodian's settlement`,
        state: "done",
      };
    case "failed":
      return {
        title,
        detail: `The custodian could not pay ${amount}: ${release.failure?.reason ?? ""}`,
        state: "failed",
      };
    default:
      return {
        title,
        detail: `Release of ${amount} cancelled: ${release.cancellation?.reason ?? ""}`,
        state: "failed",
      };
  }
}

/** The milestone's four steps, from creation to the capital disbursed (docs/domain.md "Dashboards and lists"). */
export function MilestoneProgress({ milestone }: { milestone: MilestoneDetailDto }) {
  const { status } = milestone;
  const started = status === "in_verification" || status === "verified" || status === "rejected";
  const decided = status === "verified" || status === "rejected";
  const steps: Step[] = [
    { title: "Milestone Created", detail: formatLongDate(milestone.createdAt), state: "done" },
    {
      title: "Verification Started",
      detail: started
        ? `${verifierLabel(milestone)}${milestone.startedAt ? ` · ${formatLongDate(milestone.startedAt)}` : ""}`
        : "Not started",
      state: started ? "done" : "todo",
    },
    {
      title: "Verification Completed",
      detail:
        decided && milestone.verificationDate
          ? `${status === "verified" ? "Approved" : "Rejected"} on ${formatLongDate(milestone.verificationDate)}`
          : "Not completed",
      state: status === "verified" ? "done" : status === "rejected" ? "failed" : "todo",
    },
    capitalStep(milestone),
  ];
  return (
    <ol className="grid gap-4" aria-label="Milestone progress">
      {steps.map((step) => (
        <li key={step.title} className="flex items-start gap-3">
          {step.state === "done" ? (
            <CheckCircle2Icon className="mt-0.5 size-5 shrink-0 text-green-700" aria-label="Done" />
          ) : step.state === "failed" ? (
            <XCircleIcon className="mt-0.5 size-5 shrink-0 text-red-700" aria-label="Not done" />
          ) : (
            <CircleIcon className="mt-0.5 size-5 shrink-0 text-slate-400" aria-label="Not yet" />
          )}
          <div>
            <p className={cn("font-medium", step.state === "todo" ? "text-slate-600" : "text-slate-900")}>
              {step.title}
            </p>
            <p className="text-sm text-muted-foreground">{step.detail}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
