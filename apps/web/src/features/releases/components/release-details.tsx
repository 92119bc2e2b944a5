import { formatDateTime, formatMoney, type ReleaseDto } from "@tranche/domain";
import { FileBadgeIcon } from "lucide-react";
import { useId } from "react";
import { ReleaseStatusBadge } from "@/components/status-badge";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ReleaseActions } from "./release-actions";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 py-1.5 text-sm sm:grid-cols-[10rem_1fr] sm:gap-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** What the release says on a milestone: its status, what the custodian was told, and what came back. */
export function ReleaseDetails({ release, title = "Capital Release" }: { release: ReleaseDto; title?: string }) {
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle id={titleId}>{title}</CardTitle>
        <ReleaseStatusBadge status={release.status} className="text-sm" />
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl>
          <Row label={release.status === "settled" ? "Settled" : "Released"}>
            {formatMoney(release.amount, release.currency)}
          </Row>
          <Row label="Instruction id">
            <code className="text-xs">{release.instructionId}</code>
          </Row>
          <Row label="Instructed">{formatDateTime(release.instructedAt)}</Row>
          {release.settlement ? (
            <>
              <Row label="Payment reference">{release.settlement.reference}</Row>
              <Row label="Settled on">{formatDateTime(release.settlement.settledAt)}</Row>
            </>
          ) : null}
          {release.failure ? (
            <Row label="Failed">
              {release.failure.reason}{" "}
              <span className="font-normal text-muted-foreground">({formatDateTime(release.failure.failedAt)})</span>
            </Row>
          ) : null}
          {release.cancellation ? (
            <Row label="Cancelled">
              {release.cancellation.reason}{" "}
              <span className="font-normal text-muted-foreground">
                ({formatDateTime(release.cancellation.cancelledAt)})
              </span>
            </Row>
          ) : null}
        </dl>
        <p className="text-xs text-muted-foreground">{STATUS_NOTES[release.status]}</p>
        <div className="flex flex-wrap gap-2">
          {release.status === "cancelled" ? null : (
            <a
              href={`/api/releases/${release.id}/certificate`}
              download
              className={buttonVariants({ variant: "outline", size: "sm" })}
            >
              <FileBadgeIcon aria-hidden /> Download certificate
            </a>
          )}
          <ReleaseActions release={release} />
        </div>
      </CardContent>
    </Card>
  );
}

const STATUS_NOTES: Record<ReleaseDto["status"], string> = {
  instructed: "The custodian has been instructed to pay; settlement is confirmed when the custodian reports it.",
  settled: "The custodian confirmed the payment.",
  failed: "The custodian could not pay. An admin can re-instruct or cancel the release.",
  cancelled: "This capital is not counted as released.",
};

/** Every release of a milestone, oldest first: one card each, numbered when partial releases made several. */
export function MilestoneReleases({ releases }: { releases: ReleaseDto[] }) {
  if (releases.length === 1) return <ReleaseDetails release={releases[0]} />;
  return (
    <div className="grid gap-4">
      {releases.map((release, i) => (
        <ReleaseDetails key={release.id} release={release} title={`Capital Release ${i + 1} of ${releases.length}`} />
      ))}
    </div>
  );
}
