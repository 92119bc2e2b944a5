import type { milestoneExportQuerySchema } from "@tranche/domain";
import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { milestones, projects, users } from "../../db/schema";
import type { CsvValue } from "../../lib/csv";
import { keysetBatches } from "../../lib/keyset";
import { EXPORT_BATCH } from "../projects/export";
import { MILESTONE_SORT_SPECS, milestoneFilter } from "./list";

export const MILESTONE_CSV_HEADER = [
  "id",
  "project_id",
  "project",
  "title",
  "status",
  "currency",
  "amount",
  "due_date",
  "verifier",
  "verification_date",
  "created_at",
];

/**
 * The milestones the list shows (same visibility and filters), in the list's sort, read a batch at a time on that
 * sort's keys. Amounts are the database's exact decimals, as text.
 */
export async function* exportMilestones(
  ctx: ServiceContext,
  query: z.output<typeof milestoneExportQuerySchema>,
): AsyncGenerator<CsvValue[][]> {
  const filter = milestoneFilter(ctx, query);
  const batches = keysetBatches(MILESTONE_SORT_SPECS[query.sort], EXPORT_BATCH, (page) =>
    ctx.db
      .select({
        id: milestones.id,
        projectId: milestones.projectId,
        project: projects.name,
        title: milestones.title,
        status: milestones.status,
        currency: projects.currency,
        amount: sql<string>`${milestones.capitalAmount}::text`,
        dueDate: milestones.dueDate,
        verifier: users.name,
        verificationDate: milestones.verificationDate,
        createdAt: milestones.createdAt,
        keysetKeys: page.keys,
      })
      .from(milestones)
      .innerJoin(projects, eq(projects.id, milestones.projectId))
      .leftJoin(users, eq(users.id, milestones.verifierId))
      .where(and(filter, page.after))
      .orderBy(...page.orderBy)
      .limit(page.limit),
  );
  for await (const rows of batches) {
    yield rows.map((row) => [
      row.id,
      row.projectId,
      row.project,
      row.title,
      row.status,
      row.currency,
      row.amount,
      row.dueDate,
      row.verifier,
      row.verificationDate?.toISOString(),
      row.createdAt.toISOString(),
    ]);
  }
}
