import type { ReleaseStatus } from "@tranche/domain";
import { and, eq, sql } from "drizzle-orm";
import type { CallerContext } from "../../context";
import { disbursements, milestones, projects } from "../../db/schema";
import type { CsvValue } from "../../lib/csv";
import { keysetBatches, type SortSpec } from "../../lib/keyset";
import { EXPORT_BATCH } from "../projects/export";
import { visibleReleases } from "./dto";

export const RELEASE_CSV_HEADER = [
  "id",
  "instruction_id",
  "status",
  "currency",
  "amount",
  "project",
  "milestone",
  "approved_at",
  "settlement_reference",
  "settled_at",
  "failure_reason",
  "cancellation_reason",
];

const OLDEST: SortSpec = {
  name: "oldest",
  direction: "asc",
  keys: [
    { expr: disbursements.releasedAt, type: "timestamptz" },
    { expr: disbursements.id, type: "uuid" },
  ],
};

/**
 * The releases the list shows (same visibility and filters), oldest approval first, read a batch at a time
 * on (approval time, id) so a large export never sits in memory. Amounts are the database's exact decimals.
 */
export async function* exportReleases(
  ctx: CallerContext,
  input: { status?: ReleaseStatus; projectId?: string },
): AsyncGenerator<CsvValue[][]> {
  const batches = keysetBatches(OLDEST, EXPORT_BATCH, (page) =>
    ctx.db
      .select({
        id: disbursements.id,
        instructionId: disbursements.instructionId,
        status: disbursements.status,
        currency: disbursements.currency,
        amount: sql<string>`${disbursements.amount}::text`,
        project: projects.name,
        milestone: milestones.title,
        approvedAt: disbursements.releasedAt,
        reference: disbursements.settlementReference,
        settledAt: disbursements.settledAt,
        failure: disbursements.failureReason,
        cancellation: disbursements.cancellationReason,
        keysetKeys: page.keys,
      })
      .from(disbursements)
      .innerJoin(milestones, eq(milestones.id, disbursements.milestoneId))
      .innerJoin(projects, eq(projects.id, disbursements.projectId))
      .where(
        and(
          visibleReleases(ctx.caller),
          input.status ? eq(disbursements.status, input.status) : undefined,
          input.projectId ? eq(disbursements.projectId, input.projectId) : undefined,
          page.after,
        ),
      )
      .orderBy(...page.orderBy)
      .limit(page.limit),
  );
  for await (const rows of batches) {
    yield rows.map((r) => [
      r.id,
      r.instructionId,
      r.status,
      r.currency,
      r.amount,
      r.project,
      r.milestone,
      r.approvedAt.toISOString(),
      r.reference,
      r.settledAt?.toISOString(),
      r.failure,
      r.cancellation,
    ]);
  }
}
