import type { Currency, ReleaseDto, ReleaseStatus } from "@tranche/domain";
import { asc, eq, type SQL, sql } from "drizzle-orm";
import type { Caller } from "../../context";
import type { DbOrTx } from "../../db/client";
import { disbursements, milestones, projects, users } from "../../db/schema";
import { toMoney } from "../../lib/money";
import { releaseApprovalEvent } from "./approval-event";

const columns = {
  id: disbursements.id,
  instructionId: disbursements.instructionId,
  status: disbursements.status,
  amount: disbursements.amount,
  currency: disbursements.currency,
  milestoneId: disbursements.milestoneId,
  milestoneName: milestones.title,
  projectId: disbursements.projectId,
  projectName: projects.name,
  approvedAt: disbursements.releasedAt,
  instructedAt: disbursements.instructedAt,
  settlementReference: disbursements.settlementReference,
  settledAt: disbursements.settledAt,
  failureReason: disbursements.failureReason,
  failedAt: disbursements.failedAt,
  cancellationReason: disbursements.cancellationReason,
  cancelledAt: disbursements.cancelledAt,
  updatedAt: disbursements.updatedAt,
};

/** The release rows with their milestone and project names; `extra` adds columns (a list's keyset keys). */
export function selectReleases<E extends Record<string, SQL>>(db: DbOrTx, extra?: E) {
  return db
    .select({ ...columns, ...(extra as E) })
    .from(disbursements)
    .innerJoin(milestones, eq(milestones.id, disbursements.milestoneId))
    .innerJoin(projects, eq(projects.id, disbursements.projectId))
    .$dynamic();
}

type Row = Awaited<ReturnType<typeof selectReleases>>[number];

/** SQL condition on `disbursements`: the releases the caller may see (admins and tokens: all). */
export function visibleReleases(caller: Caller): SQL | undefined {
  if (caller.kind === "token" || caller.user.role === "admin") return undefined;
  return sql`exists (select 1 from project_members pm where pm.project_id = ${disbursements.projectId}
    and pm.user_id = ${caller.user.id} and pm.role in ('owner', 'investor'))`;
}

/** Re-instruct and cancel are an admin's, on a failed release. */
function permissions(row: Pick<Row, "status">, caller: Caller | null) {
  const admin = caller?.kind === "user" && caller.user.role === "admin";
  return { canReinstruct: admin && row.status === "failed", canCancel: admin && row.status === "failed" };
}

export function toReleaseDto(row: Row, caller: Caller | null): ReleaseDto {
  const iso = (d: Date | null) => d?.toISOString() ?? "";
  return {
    id: row.id,
    instructionId: row.instructionId,
    status: row.status as ReleaseStatus,
    amount: toMoney(row.amount),
    currency: row.currency as Currency,
    milestone: { id: row.milestoneId, name: row.milestoneName },
    project: { id: row.projectId, name: row.projectName },
    approvedAt: row.approvedAt.toISOString(),
    instructedAt: row.instructedAt.toISOString(),
    settlement:
      row.status === "settled" && row.settlementReference
        ? { reference: row.settlementReference, settledAt: iso(row.settledAt) }
        : null,
    failure:
      row.status === "failed" && row.failureReason ? { reason: row.failureReason, failedAt: iso(row.failedAt) } : null,
    cancellation:
      row.status === "cancelled" && row.cancellationReason
        ? { reason: row.cancellationReason, cancelledAt: iso(row.cancelledAt) }
        : null,
    updatedAt: row.updatedAt.toISOString(),
    permissions: permissions(row, caller),
  };
}

/** One release as `caller` sees it (null: it does not exist). */
/** Every release matching `where`, oldest first (a milestone has several after partial releases). */
export async function loadReleases(db: DbOrTx, where: SQL, caller: Caller | null): Promise<ReleaseDto[]> {
  const rows = await selectReleases(db).where(where).orderBy(asc(disbursements.round), asc(disbursements.id));
  return rows.map((row) => toReleaseDto(row, caller));
}

export async function loadRelease(db: DbOrTx, where: SQL, caller: Caller | null): Promise<ReleaseDto | null> {
  const [row] = await selectReleases(db).where(where);
  return row ? toReleaseDto(row, caller) : null;
}

/**
 * The data of every release.* event (the contract with integrations): amount as a decimal string, the
 * beneficiary (the project owner when the release was made, fixed with it), the verifiers whose approvals made
 * it, and the hash of the audit event of the approval.
 */
export async function releaseEventData(
  tx: DbOrTx,
  releaseId: string,
  options: { approvalCitedLater?: boolean } = {},
): Promise<Record<string, unknown>> {
  const [row] = await tx
    .select({
      ...columns,
      amountText: sql<string>`${disbursements.amount}::text`,
      verifierId: milestones.verifierId,
      verifierName: users.name,
      beneficiary: disbursements.beneficiary,
      // The verifiers whose approvals made it (the milestone's verifier for a release made before decisions were kept).
      approvers: sql<{ id: string; name: string }[]>`(
        select coalesce(json_agg(json_build_object('id', u.id, 'name', u.name) order by d.decided_at, d.id), '[]')
        from verification_decisions d join users u on u.id = d.user_id
        where d.id = any(${disbursements.decisionIds}) and d.kind = 'approve')`,
    })
    .from(disbursements)
    .innerJoin(milestones, eq(milestones.id, disbursements.milestoneId))
    .innerJoin(projects, eq(projects.id, disbursements.projectId))
    .leftJoin(users, eq(users.id, milestones.verifierId))
    .where(eq(disbursements.id, releaseId));
  if (!row) throw new Error(`release ${releaseId} vanished while its event was built`);
  const { beneficiary } = row;
  // The approval's own transaction builds the event before it appends that approval, and sets the hash itself.
  const approval = options.approvalCitedLater
    ? undefined
    : await releaseApprovalEvent(tx, { id: row.id, milestoneId: row.milestoneId });
  const dto = toReleaseDto(row, null);
  return {
    releaseId: row.id,
    instructionId: row.instructionId,
    status: row.status,
    amount: row.amountText,
    currency: row.currency,
    milestone: dto.milestone,
    project: dto.project,
    beneficiary: {
      ...(beneficiary?.userId ? { id: beneficiary.userId } : {}),
      name: beneficiary?.name ?? null,
      organization: beneficiary?.organization ?? null,
    },
    verifiers: row.approvers.length
      ? row.approvers
      : row.verifierId
        ? [{ id: row.verifierId, name: row.verifierName }]
        : [],
    approvedAt: dto.approvedAt,
    approvalEventHash: approval?.hash ?? null,
    ...(dto.settlement ? { settlement: dto.settlement } : {}),
    ...(dto.failure ? { failure: { reason: dto.failure.reason } } : {}),
    ...(dto.cancellation ? { cancellation: { reason: dto.cancellation.reason } } : {}),
  };
}
