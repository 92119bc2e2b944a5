// What one file's analysis means for its milestone and against every other file on the platform: dates outside the
// milestone's window, a capture far from the site, an invoice total beyond the milestone's amount, a document number,
// a photo or the very same file seen before. Messages never name another project: the flag's details do, for admins.
import { assessCapture, formatMoney, type LatLng } from "@tranche/domain";
import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "../../db/client";
import type { FileAnalysis, RaisedFlag } from "./analyze";
import { documentKey } from "./fields";
import { PHASH_MATCH_BITS } from "./phash";

export interface CheckContext {
  evidenceId: string;
  /** The file's SHA-256: the same bytes in another milestone are a reused file. */
  sha256: string;
  createdAt: Date;
  projectId: string;
  milestoneId: string;
  milestoneAmount: number;
  currency: string;
  window: { opens: Date; closes: Date };
  site: LatLng | null;
  radiusM: number;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const KIND_NAMES: Record<string, string> = {
  invoice: "invoice",
  certificate: "certificate",
  inspection_report: "inspection report",
  other: "document",
};

const article = (noun: string) => `${/^[aeiou]/.test(noun) ? "An" : "A"} ${noun}`;

/** Flags from the photo's EXIF capture time and position, worded as the capture tags' are. */
function exifFlags(analysis: FileAnalysis, context: CheckContext): RaisedFlag[] {
  const photo = analysis.photo;
  if (!photo?.capturedAt) return [];
  const capturedAt = photo.capturedAt;
  if (photo.latitude !== null && photo.longitude !== null) {
    const assessed = assessCapture({
      capture: { latitude: photo.latitude, longitude: photo.longitude, accuracy: null, capturedAt },
      site: context.site,
      radiusM: context.radiusM,
      window: context.window,
      receivedAt: context.createdAt,
    });
    return assessed.flags.map((f) => ({
      ...f,
      message: `By its EXIF metadata: ${f.message.charAt(0).toLowerCase()}${f.message.slice(1)}`,
      details: { exif: { latitude: photo.latitude, longitude: photo.longitude, capturedAt: capturedAt.toISOString() } },
    }));
  }
  if (capturedAt < context.window.opens || capturedAt > context.window.closes) {
    return [
      {
        code: "outside_window",
        severity: "medium",
        message: `By its EXIF metadata this photo was taken on ${day(capturedAt)}, outside the milestone's window (${day(context.window.opens)} to ${day(context.window.closes)}).`,
        details: { exif: { capturedAt: capturedAt.toISOString() } },
      },
    ];
  }
  return [];
}

function documentDateFlag(analysis: FileAnalysis, context: CheckContext): RaisedFlag[] {
  const issued = analysis.extracted?.issueDate;
  if (!issued || !analysis.extracted) return [];
  if (issued >= day(context.window.opens) && issued <= day(context.window.closes)) return [];
  return [
    {
      code: "outside_window",
      severity: "medium",
      message: `This ${KIND_NAMES[analysis.extracted.kind]} is dated ${issued}, outside the milestone's window (${day(context.window.opens)} to ${day(context.window.closes)}).`,
      details: { issueDate: issued },
    },
  ];
}

/** An invoice in another currency, or invoices of the milestone adding up to more than its amount. */
async function totalFlag(tx: Tx, analysis: FileAnalysis, context: CheckContext): Promise<RaisedFlag[]> {
  const extracted = analysis.extracted;
  if (extracted?.kind !== "invoice" || extracted.total === null) return [];
  const amount = formatMoney(context.milestoneAmount, context.currency);
  if (extracted.currency && extracted.currency !== context.currency) {
    return [
      {
        code: "total_mismatch",
        severity: "medium",
        message: `This invoice is in ${extracted.currency}, the milestone's amount (${amount}) in ${context.currency}: compare them at the rate of the day.`,
        details: { total: extracted.total, currency: extracted.currency },
      },
    ];
  }
  // Invoices checked before this one in the same milestone, so each invoice is judged on what came before it.
  const [earlier] = await queryRows<{ sum: string | null }>(
    tx,
    sql`select sum((c.extracted->>'total')::numeric) as sum
        from evidence_checks c join evidence e on e.id = c.evidence_id
        where e.milestone_id = ${context.milestoneId} and c.evidence_id <> ${context.evidenceId}
          and c.extracted->>'kind' = 'invoice' and c.extracted->>'total' is not null
          and coalesce(c.extracted->>'currency', ${context.currency}) = ${context.currency}
          and (e.created_at, e.id) < (${context.createdAt.toISOString()}::timestamptz, ${context.evidenceId}::uuid)`,
  );
  const before = Number(earlier?.sum ?? 0);
  const sum = before + extracted.total;
  // Half a percent: rounding and small fees are not worth a verifier's time.
  if (sum <= context.milestoneAmount * 1.005) return [];
  const total = formatMoney(extracted.total, context.currency);
  return [
    {
      code: "total_mismatch",
      severity: "high",
      message:
        before > 0
          ? `This invoice's total, ${total}, brings the milestone's invoices to ${formatMoney(sum, context.currency)}, more than its amount of ${amount}.`
          : `This invoice's total, ${total}, is more than the milestone's amount of ${amount}.`,
      details: { total: extracted.total, invoicesTotal: sum, milestoneAmount: context.milestoneAmount },
    },
  ];
}

interface Match {
  evidence_id: string;
  project_id: string;
  project_name: string;
  milestone_id: string;
  milestone_title: string;
}

/** Where a match is, in words a member of this project may read. */
function where(match: Match, context: CheckContext): string {
  if (match.project_id !== context.projectId) return "in another project";
  if (match.milestone_id === context.milestoneId) return "already in this milestone";
  return `in this project's milestone "${match.milestone_title}"`;
}

const matchDetails = (matches: Match[]) =>
  matches.slice(0, 5).map((m) => ({
    evidenceId: m.evidence_id,
    projectId: m.project_id,
    projectName: m.project_name,
    milestoneId: m.milestone_id,
    milestoneTitle: m.milestone_title,
  }));

/** Matches among files uploaded before this one, its own project's first: "seen before" keeps re-checks stable. */
const earlierFiles = (context: CheckContext) =>
  sql`(e.created_at, e.id) < (${context.createdAt.toISOString()}::timestamptz, ${context.evidenceId}::uuid)`;

async function duplicateFlag(tx: Tx, analysis: FileAnalysis, context: CheckContext): Promise<RaisedFlag[]> {
  const number = analysis.extracted?.documentNumber;
  if (!number || !analysis.extracted) return [];
  const matches = await queryRows<Match>(
    tx,
    sql`select e.id as evidence_id, p.id as project_id, p.name as project_name, m.id as milestone_id,
          m.title as milestone_title
        from evidence_checks c join evidence e on e.id = c.evidence_id
          join milestones m on m.id = e.milestone_id join projects p on p.id = m.project_id
        where c.document_key = ${documentKey(analysis.extracted.kind, number)} and ${earlierFiles(context)}
        order by (p.id = ${context.projectId}) desc, e.created_at limit 5`,
  );
  if (matches.length === 0) return [];
  return [
    {
      code: "duplicate_document_number",
      severity: "high",
      message: `${article(KIND_NAMES[analysis.extracted.kind])} numbered ${number} was submitted before, ${where(matches[0], context)}.`,
      details: { documentNumber: number, matches: matchDetails(matches) },
    },
  ];
}

/**
 * The same bytes, of any type, uploaded before to another milestone (here or in another project): last quarter's
 * invoice or another project's video submitted again. The same file twice in one milestone is a re-upload, not reuse.
 */
async function reusedFileFlag(tx: Tx, context: CheckContext): Promise<RaisedFlag[]> {
  const matches = await queryRows<Match>(
    tx,
    sql`select e.id as evidence_id, p.id as project_id, p.name as project_name, m.id as milestone_id,
          m.title as milestone_title
        from evidence e join milestones m on m.id = e.milestone_id join projects p on p.id = m.project_id
        where e.sha256 = ${context.sha256} and e.milestone_id <> ${context.milestoneId} and ${earlierFiles(context)}
        order by (p.id <> ${context.projectId}) desc, e.created_at limit 5`,
  );
  if (matches.length === 0) return [];
  // As serious as a reused photo: another project's file is high, one from this project's other milestone medium.
  return [
    {
      code: "reused_file",
      severity: matches[0].project_id !== context.projectId ? "high" : "medium",
      message: `This exact file (the same SHA-256) was uploaded before, ${where(matches[0], context)}.`,
      details: { sha256: context.sha256, matches: matchDetails(matches) },
    },
  ];
}

async function reusedPhotoFlag(tx: Tx, analysis: FileAnalysis, context: CheckContext): Promise<RaisedFlag[]> {
  if (!analysis.photoHash || analysis.extracted) return [];
  // Identical bytes are left to reusedFileFlag (which also knows a re-upload to the same milestone is not reuse),
  // so an exact copy is flagged once; this one finds the re-encoded, resized or recoloured copies.
  // Hamming distance of the 64-bit hashes, in the database: every photo on the platform is compared.
  const matches = await queryRows<Match & { distance: number }>(
    tx,
    sql`select e.id as evidence_id, p.id as project_id, p.name as project_name, m.id as milestone_id,
          m.title as milestone_title,
          bit_count(('x' || c.photo_hash)::bit(64) # ('x' || ${analysis.photoHash})::bit(64))::int as distance
        from evidence_checks c join evidence e on e.id = c.evidence_id
          join milestones m on m.id = e.milestone_id join projects p on p.id = m.project_id
        where c.photo_hash is not null and c.extracted is null and e.sha256 <> ${context.sha256}
          and ${earlierFiles(context)}
          and bit_count(('x' || c.photo_hash)::bit(64) # ('x' || ${analysis.photoHash})::bit(64)) <= ${PHASH_MATCH_BITS}
        order by (p.id <> ${context.projectId}) desc, distance, e.created_at limit 5`,
  );
  if (matches.length === 0) return [];
  const elsewhere = matches[0].project_id !== context.projectId;
  return [
    {
      code: "reused_photo",
      severity: elsewhere ? "high" : "medium",
      message: elsewhere
        ? "This photo matches evidence in another project."
        : `This photo matches one uploaded before, ${where(matches[0], context)}.`,
      details: { matches: matchDetails(matches), distanceBits: matches[0].distance },
    },
  ];
}

/** Every flag of the file: its own, then those that need the milestone and the platform's other files. */
export async function crossCheck(tx: Tx, analysis: FileAnalysis, context: CheckContext): Promise<RaisedFlag[]> {
  const flags = [
    ...analysis.flags,
    ...exifFlags(analysis, context),
    ...documentDateFlag(analysis, context),
    ...(await totalFlag(tx, analysis, context)),
    ...(await duplicateFlag(tx, analysis, context)),
    ...(await reusedFileFlag(tx, context)),
    ...(await reusedPhotoFlag(tx, analysis, context)),
  ];
  // One flag per code (the table's key): the first, most specific one wins.
  const seen = new Set<string>();
  return flags.filter((f) => !seen.has(f.code) && seen.add(f.code));
}
