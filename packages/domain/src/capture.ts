// What a capture's tags (the device's position and time, docs/domain.md "Captures") say against the milestone:
// how far from the project's site it was taken, and whether it was taken inside the milestone's verification window.
import type { EvidenceFlagCode, EvidenceFlagSeverity } from "./evidence";
import { distanceMeters, formatDistance, type LatLng } from "./geo";

/** How far from its project's site a capture may be taken before it is flagged, unless configured otherwise. */
export const DEFAULT_SITE_RADIUS_M = 1000;

/** A device clock this far ahead of the server's is still believed (phones are rarely further out). */
export const CAPTURE_CLOCK_TOLERANCE_MS = 5 * 60_000;

const DAY_MS = 86_400_000;

/** Midnight UTC at the start of a 'YYYY-MM-DD' date. */
const startOfDay = (date: string) => new Date(`${date}T00:00:00.000Z`);

export interface VerificationWindowInput {
  /** The project's start date ('YYYY-MM-DD'), if it has one. */
  projectStartDate: string | null;
  milestoneCreatedAt: Date;
  /** The milestone's due date ('YYYY-MM-DD'). */
  dueDate: string;
  /** When the current round's verification started, if it has. */
  startedAt: Date | null;
  /** VERIFICATION_SLA_DAYS: how long a verification may take once started, or once the milestone is due. */
  slaDays: number;
  /** When the server received the capture: nothing is captured later than that. */
  receivedAt: Date;
}

/**
 * The milestone's verification window: when evidence of its work can have been captured.
 * - It opens when the work could begin: the project's start date (00:00 UTC) or the milestone's creation,
 *   whichever is earlier.
 * - It closes when the verification should be over: VERIFICATION_SLA_DAYS after the end of the due date, or after
 *   the verification started when that was later — and never later than the upload itself (plus a few minutes for a
 *   device clock running ahead).
 */
export function verificationWindow(input: VerificationWindowInput): { opens: Date; closes: Date } {
  const created = input.milestoneCreatedAt.getTime();
  const opens = input.projectStartDate ? Math.min(startOfDay(input.projectStartDate).getTime(), created) : created;
  const dueEnds = startOfDay(input.dueDate).getTime() + DAY_MS;
  const verifyBy = Math.max(dueEnds, input.startedAt?.getTime() ?? 0) + input.slaDays * DAY_MS;
  const closes = Math.min(verifyBy, input.receivedAt.getTime() + CAPTURE_CLOCK_TOLERANCE_MS);
  return { opens: new Date(opens), closes: new Date(Math.max(opens, closes)) };
}

export interface CaptureFlag {
  code: Extract<EvidenceFlagCode, "far_from_site" | "outside_window">;
  severity: EvidenceFlagSeverity;
  message: string;
}

/** 'Mar 4, 2026 14:05 UTC': flags are read by people in every time zone, so their times say which. */
function utc(date: Date): string {
  const text = date.toLocaleString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: "UTC",
  });
  return `${text.replace(/,(?=[^,]*$)/, "")} UTC`;
}

/**
 * The capture's distance to the site (null when the project has no site coordinates) and the flags its tags raise:
 * `far_from_site` beyond `radiusM` of the site, `outside_window` before the window opens or after it closes.
 */
export function assessCapture(input: {
  capture: LatLng & { accuracy: number | null; capturedAt: Date };
  site: LatLng | null;
  radiusM: number;
  window: { opens: Date; closes: Date };
  receivedAt: Date;
}): { distanceToSiteM: number | null; flags: CaptureFlag[] } {
  const { capture, site, radiusM, window } = input;
  const flags: CaptureFlag[] = [];
  const distance = site ? distanceMeters(capture, site) : null;
  if (distance !== null && distance > radiusM) {
    const accuracy =
      capture.accuracy === null ? "" : ` (the device gave its position to ±${formatDistance(capture.accuracy)})`;
    flags.push({
      code: "far_from_site",
      severity: "high",
      message: `Captured ${formatDistance(distance)} from the project's site, farther than the ${radiusM.toLocaleString("en-US")} m allowed${accuracy}.`,
    });
  }
  const at = capture.capturedAt.getTime();
  if (at < window.opens.getTime()) {
    flags.push({
      code: "outside_window",
      severity: "medium",
      message: `Captured ${utc(capture.capturedAt)}, before the milestone's verification window opened (${utc(window.opens)}).`,
    });
  } else if (at > input.receivedAt.getTime() + CAPTURE_CLOCK_TOLERANCE_MS) {
    flags.push({
      code: "outside_window",
      severity: "medium",
      message: `Captured ${utc(capture.capturedAt)}, later than it was uploaded (${utc(input.receivedAt)}): the device's clock may be wrong.`,
    });
  } else if (at > window.closes.getTime()) {
    flags.push({
      code: "outside_window",
      severity: "medium",
      message: `Captured ${utc(capture.capturedAt)}, after the milestone's verification window closed (${utc(window.closes)}).`,
    });
  }
  return { distanceToSiteM: distance, flags };
}
