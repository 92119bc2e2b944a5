import {
  capturedByWords,
  type EvidenceCaptureDto,
  type EvidenceFlagDto,
  formatCoordinates,
  formatDateTime,
  formatDistance,
  mapUrl,
} from "@tranche/domain";
import { MapPinIcon, TriangleAlertIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/**
 * Where and when the device that captured a file says it was, and how far that is from the site. It opens with
 * whose device it was, so an owner's self-declared position is never read as a verifier's on-site capture.
 */
export function CaptureTags({ capture }: { capture: EvidenceCaptureDto }) {
  return (
    <p
      className="flex flex-wrap items-center gap-x-1.5 text-xs text-slate-700"
      data-testid="capture-tags"
      data-captured-by={capture.by}
    >
      <MapPinIcon className="size-3.5 shrink-0 text-slate-500" aria-hidden />
      <span>
        {capturedByWords(capture.by)} {formatDateTime(capture.capturedAt)} at
      </span>
      <a
        href={mapUrl(capture)}
        target="_blank"
        rel="noreferrer"
        className="font-medium text-blue-700 underline-offset-2 hover:underline"
      >
        {formatCoordinates(capture)}
      </a>
      {capture.accuracy === null ? null : <span>(±{formatDistance(capture.accuracy)})</span>}
      {capture.distanceToSiteM === null ? null : <span>· {formatDistance(capture.distanceToSiteM)} from the site</span>}
    </p>
  );
}

const SEVERITY_CLASS: Record<EvidenceFlagDto["severity"], string> = {
  high: "border-red-200 bg-red-50 text-red-900",
  medium: "border-amber-200 bg-amber-50 text-amber-900",
  low: "border-slate-200 bg-slate-50 text-slate-800",
};

/**
 * What was raised about a file, each flag in its own words; a dismissed one says by whom and why. `action` adds a
 * control under a flag (a verifier's dismiss).
 */
export function EvidenceFlags({
  flags,
  action,
}: {
  flags: EvidenceFlagDto[];
  action?: (flag: EvidenceFlagDto) => ReactNode;
}) {
  if (flags.length === 0) return null;
  return (
    <ul className="grid gap-1" aria-label="Flags">
      {flags.map((flag) => (
        <li
          key={flag.id}
          className={cn(
            "flex gap-2 rounded-md border px-2 py-1.5 text-xs",
            flag.dismissed ? SEVERITY_CLASS.low : SEVERITY_CLASS[flag.severity],
          )}
          data-flag={flag.code}
        >
          <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          <span>
            <span className="font-semibold">
              Flag ({flag.severity}
              {flag.dismissed ? ", dismissed" : ""}):{" "}
            </span>
            <span className={flag.dismissed ? "line-through" : undefined}>{flag.message}</span>
            {flag.dismissal ? (
              <span className="block text-slate-600">
                Dismissed by {flag.dismissal.by.name}: {flag.dismissal.reason}
              </span>
            ) : null}
            {action ? <span className="block">{action(flag)}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
