// What a release certificate states, fixed when it is issued (with the release, in its transaction). Its fingerprint (SHA-256 of the canonical
// JSON of these facts) is printed on the certificate and carried by its QR code; /verify compares it with the
// stored record, so a certificate cannot be altered or invented without the check failing.
import { createHash, randomUUID } from "node:crypto";
import { type CapturedBy, type CertificateFacts, policyStatement, sumMoney } from "@tranche/domain";
import { and, asc, eq, gte, inArray, ne, type SQL, sql } from "drizzle-orm";
import { type Db, type DbOrTx, queryRows, type Tx } from "../../db/client";
import {
  auditCheckpoints,
  auditEvents,
  disbursements,
  evidence,
  milestones,
  projectMembers,
  projects,
  releaseCertificates,
  releasePolicies,
  users,
  verificationDecisions,
} from "../../db/schema";
import { notFound } from "../../errors";
import { toMoney } from "../../lib/money";
import {
  type AppendedAudit,
  type AuditInput,
  appendAudit,
  auditContent,
  HEAD,
  insertEvent,
  touchProject,
} from "../audit/append";
import { auditBody, canonicalJson } from "../audit/chain";
import { lockAuditRecord } from "../audit/lock";
import { flagsOf } from "../evidence/dto";
import { toRule } from "../release-policy/rule";
import { releaseApprovalEvent } from "../releases/approval-event";

async function approvalAfter(db: DbOrTx, eventId: number) {
  const [row] = await db.select({ after: auditEvents.after }).from(auditEvents).where(eq(auditEvents.id, eventId));
  return row?.after as { release?: unknown } | null | undefined;
}

export const certificateFingerprint = (facts: CertificateFacts) =>
  createHash("sha256").update(canonicalJson(facts)).digest("hex");

const person = (row: { name: string | null; organization: string | null } | null | undefined) => ({
  name: row?.name ?? "Unknown",
  organization: row?.organization ?? null,
});

/** "Release policy version 2: 2 of 3 assigned verifiers; …", or the default rule's wording (version 0). */
function policyApplied(
  release: { policyVersion: number; currency: string },
  policy: Parameters<typeof toRule>[0],
  verifiers: number,
) {
  if (release.policyVersion === 0) return "Approval by the project's assigned verifier";
  return `Release policy version ${release.policyVersion}: ${policyStatement(toRule(policy), verifiers, release.currency)}`;
}

/** What a certificate's facts are read from besides its rows, as one statement returns it (timestamps as text). */
interface FactSources {
  files: {
    id: string;
    name: string;
    sha256: string;
    size: number;
    uploaded_as: CapturedBy;
    latitude: number | null;
    longitude: number | null;
    accuracy: number | null;
    captured_at: string | null;
    distance_to_site_m: number | null;
  }[];
  decisions: {
    kind: string;
    share: string;
    comment: string | null;
    decided_at: string;
    name: string;
    organization: string | null;
  }[];
  policy: Parameters<typeof toRule>[0];
  verifiers: number;
}

/**
 * The evidence as it stood at the approval (a verified milestone's evidence cannot change afterwards),
 * the decisions of the round the release closed (one made before release rules has none) and the policy it was
 * made under with the project's verifiers: one statement.
 */
async function readFactSources(db: DbOrTx, release: typeof disbursements.$inferSelect): Promise<FactSources> {
  const [row] = await queryRows<FactSources>(
    db,
    sql`select
      (select coalesce(json_agg(f order by f.created_at, f.id), '[]') from (
         select e.id, e.original_name as name, e.sha256, e.size, e.uploaded_as, e.capture_latitude as latitude,
                e.capture_longitude as longitude, e.capture_accuracy_m as accuracy, e.captured_at,
                e.distance_to_site_m, e.created_at
         from ${evidence} e
         where e.milestone_id = ${release.milestoneId} and e.created_at <= ${release.releasedAt.toISOString()}::timestamptz) f
      ) as files,
      (select coalesce(json_agg(d order by d.decided_at, d.id), '[]') from (
         select d.id, d.kind, d.share::text as share, d.comment, d.decided_at, u.name,
                -- The organization an admin verified, recorded with the decision; never the profile's own words.
                d.organization
         from ${verificationDecisions} d join ${users} u on u.id = d.user_id
         where d.milestone_id = ${release.milestoneId} and d.round = ${release.round} and d.voided_at is null
           and d.kind in ('approve', 'countersign')) d
      ) as decisions,
      (select json_build_object('version', p.version, 'requiredApprovals', p.required_approvals,
                                'thresholds', p.thresholds, 'distinctOrganizations', p.distinct_organizations,
                                'cosignAbove', p.cosign_above::text)
         from ${releasePolicies} p
         where p.project_id = ${release.projectId} and p.version = ${release.policyVersion}) as policy,
      (select count(*)::int from ${projectMembers} pm
         where pm.project_id = ${release.projectId} and pm.role = 'verifier') as verifiers`,
  );
  return row;
}

/** The rows a certificate states facts of, besides those read in collectFacts. */
export interface CertifiedRows {
  release: typeof disbursements.$inferSelect;
  milestone: typeof milestones.$inferSelect;
  project: typeof projects.$inferSelect;
  /** Who approved it (its releasedBy), named on a release made before its decisions were kept. */
  verifier: { name: string; verifiedOrganization?: string | null } | undefined;
}

async function readCertifiedRows(db: DbOrTx, releaseId: string): Promise<CertifiedRows> {
  const [release] = await db.select().from(disbursements).where(eq(disbursements.id, releaseId));
  if (!release) throw notFound("Release");
  // One after another: this runs inside the approval's transaction, whose one connection answers one query at a
  // time anyway (pg queues concurrent ones, which pg 9 will refuse).
  const [milestone] = await db.select().from(milestones).where(eq(milestones.id, release.milestoneId));
  const [project] = await db.select().from(projects).where(eq(projects.id, release.projectId));
  const [verifier] = await db.select().from(users).where(eq(users.id, release.releasedBy));
  return { release, milestone, project, verifier };
}

/**
 * The facts as Tranche's records state them now (used once, when the certificate is first issued). `cited`: the
 * approval's audit event is not written yet (the release's own transaction reads before it takes the audit lock):
 * what it will say of a partial release is given, and `auditEvent` is filled in by `appendCertifiedApproval`.
 */
async function collectFacts(
  db: DbOrTx,
  { release, milestone, project, verifier }: CertifiedRows,
  issuedAt: Date,
  cited?: { remaining?: number },
): Promise<CertificateFacts> {
  const { files, decisions, policy, verifiers } = await readFactSources(db, release);
  const flags = await flagsOf(
    db,
    files.map((f) => f.id),
  );
  const approval = cited ? undefined : await releaseApprovalEvent(db, release);
  // A partial release states its share and why: the agreed share is the smallest of the approvals' (quorum.ts),
  // and what was open is in the approval's audit record.
  const shares = decisions.filter((d) => d.kind === "approve").map((d) => Number(d.share));
  const share = Math.min(100, ...shares);
  const released = (cited ?? (approval ? (await approvalAfter(db, approval.id))?.release : undefined)) as
    | { remaining?: number }
    | undefined;
  const partial =
    share < 100
      ? {
          share,
          of: sumMoney([toMoney(release.amount), released?.remaining ?? 0]).toFixed(2),
          reason: decisions
            .filter((d) => d.kind === "approve" && Number(d.share) === share && d.comment)
            .map((d) => d.comment)
            .join(" "),
        }
      : undefined;
  return {
    kind: "tranche.release-certificate",
    version: 1,
    release: {
      id: release.id,
      amount: toMoney(release.amount).toFixed(2),
      currency: release.currency,
      approvedAt: release.releasedAt.toISOString(),
    },
    project: { id: project.id, name: project.name, location: project.location },
    milestone: { id: milestone.id, title: milestone.title, dueDate: milestone.dueDate },
    beneficiary: person(release.beneficiary),
    approvals: decisions.length
      ? decisions.map((d) => ({
          verifier: person(d),
          decision: d.kind === "countersign" ? ("countersigned" as const) : ("approved" as const),
          decidedAt: new Date(d.decided_at).toISOString(),
        }))
      : [
          {
            verifier: person(verifier && { name: verifier.name, organization: verifier.verifiedOrganization ?? null }),
            decision: "approved",
            decidedAt: (milestone.verificationDate ?? release.releasedAt).toISOString(),
          },
        ],
    policy: policyApplied(release, policy, verifiers),
    ...(partial ? { partial } : {}),
    evidence: files.map((f) => {
      const raised = flags.get(f.id) ?? [];
      return {
        name: f.name,
        sha256: f.sha256,
        size: f.size,
        ...(f.latitude !== null && f.longitude !== null && f.captured_at
          ? {
              capture: {
                by: f.uploaded_as,
                latitude: f.latitude,
                longitude: f.longitude,
                accuracy: f.accuracy,
                capturedAt: new Date(f.captured_at).toISOString(),
                distanceToSiteM: f.distance_to_site_m,
              },
            }
          : {}),
        ...(raised.length
          ? {
              flags: raised.map((flag) => ({
                code: flag.code,
                severity: flag.severity,
                message: flag.message,
                dismissed: flag.dismissed,
              })),
            }
          : {}),
      };
    }),
    auditEvent: approval
      ? { id: approval.id, hash: approval.hash, recordedAt: approval.createdAt.toISOString() }
      : null,
    issuedAt: issuedAt.toISOString(),
  };
}

/**
 * Issues a release's certificate: its facts as the records state them now, stored with their fingerprint and
 * audited. Called in the transaction that creates the release (after its approval event, whose hash the facts
 * carry), so a certificate exists from the moment the release does and reading one never writes. Issuing twice
 * does nothing: the first facts stand.
 */
export async function issueCertificate(
  tx: Tx,
  releaseId: string,
  actorId: string | null = null,
  issuedAt = new Date(),
): Promise<void> {
  await storeCertificate(
    tx,
    releaseId,
    await collectFacts(tx, await readCertifiedRows(tx, releaseId), issuedAt),
    actorId,
  );
}

export interface PreparedCertificate {
  releaseId: string;
  facts: CertificateFacts;
}

/**
 * A new release's certificate, read before its approval is audited (so the reads stay outside the audit lock's
 * hold), from the rows its transaction just wrote or locked; `remaining` is what a partial release leaves open, as
 * the approval's event states it.
 */
export async function prepareCertificate(
  tx: Tx,
  rows: CertifiedRows,
  remaining: number | undefined,
): Promise<PreparedCertificate> {
  // Its issuedAt is set when it is issued.
  return { releaseId: rows.release.id, facts: await collectFacts(tx, rows, new Date(), { remaining }) };
}

/** The audit event of a certificate's issue: its fingerprint, at the time it states. */
function issuedEvent(
  releaseId: string,
  facts: Pick<CertificateFacts, "project">,
  fingerprint: string,
  issuedAt: Date,
  actorId: string | null,
): AuditInput {
  return {
    actorId,
    action: "certificate.issued",
    entityType: "disbursement",
    entityId: releaseId,
    projectId: facts.project.id,
    after: { fingerprint },
    createdAt: issuedAt,
  };
}

/**
 * `json` with each hole's quoted placeholder replaced by SQL that gives the JSON text to stand there. The
 * placeholders are random, so each occurs once and nothing else in `json` can be mistaken for one.
 */
function fillHoles(json: string, holes: Record<string, SQL>): SQL {
  const found = Object.entries(holes)
    .map(([placeholder, value]) => {
      const quoted = JSON.stringify(placeholder);
      const at = json.indexOf(quoted);
      if (at < 0 || json.indexOf(quoted, at + 1) >= 0) throw new Error("a hole must occur exactly once");
      return { at, end: at + quoted.length, value };
    })
    .sort((a, b) => a.at - b.at);
  const parts: SQL[] = [];
  let from = 0;
  for (const hole of found) {
    parts.push(sql`${json.slice(from, hole.at)}::text`, hole.value);
    from = hole.end;
  }
  parts.push(sql`${json.slice(from)}::text`);
  return sql`(${sql.join(parts, sql` || `)})`;
}

/**
 * Appends a release's approval event and issues its certificate citing it, with the certificate's own event: one
 * statement after the audit lock, so the lock's hold has one round trip less of each
 * (docs/decisions/030-fewer-statements-per-approval.md). The certificate's facts carry the approval event's id and
 * hash, which only the append knows: their canonical JSON is built here with a placeholder for each, and joined
 * around the real values in SQL, where the fingerprint is hashed (SHA-256 of the same text `certificateFingerprint`
 * gives). The certificate's event is built the same way around its fingerprint, and hashed onto the approval's.
 */
export async function appendCertifiedApproval(
  tx: Tx,
  input: AuditInput,
  prepared: PreparedCertificate,
  actorId: string | null,
): Promise<AppendedAudit> {
  await lockAuditRecord(tx);
  const approval = auditContent(input);
  // Issued now, after the approval it cites (the record stays in time order).
  const issuedAt = new Date(Math.max(Date.now(), approval.createdAt.getTime()));
  const hole = () => `@@${randomUUID()}@@`;
  const [id, hash, fingerprint] = [hole(), hole(), hole()];
  const facts = canonicalJson({
    ...prepared.facts,
    auditEvent: { id, hash, recordedAt: approval.createdAt.toISOString() },
    issuedAt: issuedAt.toISOString(),
  });
  const issued = auditContent(issuedEvent(prepared.releaseId, prepared.facts, fingerprint, issuedAt, actorId));
  const [row] = await queryRows<{ id: string; hash: string }>(
    tx,
    sql`with ${HEAD},
        added as (${insertEvent(approval, sql`head.hash`, sql`head`)}),
        stated as (
          select ${fillHoles(facts, { [id]: sql`added.id::text`, [hash]: sql`'"' || added.hash || '"'` })} as text
          from added),
        certificate as (
          insert into ${releaseCertificates} (release_id, facts, fingerprint, issued_at)
          select ${prepared.releaseId}, stated.text::jsonb, encode(sha256(convert_to(stated.text, 'UTF8')), 'hex'),
                 ${issuedAt.toISOString()}::timestamptz
          from stated
          on conflict (release_id) do nothing
          returning fingerprint),
        issued as (${insertEvent(issued, sql`added.hash`, sql`added, certificate`, {
          body: fillHoles(auditBody(issued), { [fingerprint]: sql`'"' || certificate.fingerprint || '"'` }),
          after: sql`jsonb_build_object('fingerprint', certificate.fingerprint)`,
        })}),
        ${touchProject(issued, sql`added`)}
        select id, hash from added`,
  );
  return { id: Number(row.id), hash: row.hash, createdAt: approval.createdAt };
}

async function storeCertificate(
  tx: Tx,
  releaseId: string,
  facts: CertificateFacts,
  actorId: string | null,
): Promise<void> {
  const issuedAt = new Date(facts.issuedAt);
  const fingerprint = certificateFingerprint(facts);
  const [inserted] = await tx
    .insert(releaseCertificates)
    .values({ releaseId, facts, fingerprint, issuedAt })
    .onConflictDoNothing({ target: releaseCertificates.releaseId })
    .returning({ fingerprint: releaseCertificates.fingerprint });
  if (!inserted) return;
  await appendAudit(tx, issuedEvent(releaseId, facts, fingerprint, issuedAt, actorId));
}

/**
 * Issues the certificates that releases made before certificates were issued with them lack (a cancelled release
 * pays nothing and gets none), each in its own transaction; `projectIds` narrows the search. Run at start-up and
 * after bulk loads, never by a GET. Returns how many were issued.
 */
export async function issueMissingCertificates(db: Db | Tx, projectIds?: string[]): Promise<number> {
  if (projectIds?.length === 0) return 0;
  const missing = await db
    .select({ id: disbursements.id })
    .from(disbursements)
    .where(
      and(
        ne(disbursements.status, "cancelled"),
        projectIds ? inArray(disbursements.projectId, projectIds) : undefined,
        sql`not exists (select 1 from release_certificates c where c.release_id = ${disbursements.id})`,
      ),
    )
    .orderBy(asc(disbursements.releasedAt), asc(disbursements.id));
  for (const { id } of missing) await db.transaction((tx) => issueCertificate(tx, id));
  return missing.length;
}

/** A release's certificate as issued, or undefined when it has none (reads only). */
export async function storedCertificate(
  db: DbOrTx,
  releaseId: string,
): Promise<{ facts: CertificateFacts; fingerprint: string } | undefined> {
  const [row] = await db.select().from(releaseCertificates).where(eq(releaseCertificates.releaseId, releaseId));
  return row ? { facts: row.facts as CertificateFacts, fingerprint: row.fingerprint } : undefined;
}

/** The earliest signed checkpoint that covers an audit event, if one has been signed since. */
export async function coveringCheckpoint(db: DbOrTx, eventId: number) {
  const [row] = await db
    .select()
    .from(auditCheckpoints)
    .where(gte(auditCheckpoints.lastEventId, eventId))
    .orderBy(asc(auditCheckpoints.lastEventId))
    .limit(1);
  return row
    ? {
        id: row.id,
        lastEventId: row.lastEventId,
        headHash: row.headHash,
        keyId: row.keyId,
        signature: row.signature,
        signedAt: row.createdAt.toISOString(),
      }
    : null;
}
