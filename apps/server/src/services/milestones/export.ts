import type { milestoneListQuerySchema } from "@tranche/domain";
import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { milestones, projects, users } from "../../db/schema";
import type { CsvValue } from "../../lib/csv";
import { EXPORT_BATCH } from "../projects/export";
import { milestoneFilter } from "./list";

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
 * The milestones the list shows (same visibility and filters), earliest due first, read page by page on
 * (due_date, id). Amounts are the database's exact decimals, as text.
 */
export async function* exportMilestones(
  ctx: ServiceContext,
  query: z.output<typeof milestoneListQuerySchema>,
): AsyncGenerator<CsvValue[][]> {
  const filter = milestoneFilter(ctx, query);
  let after: { dueDate: string; id: string } | undefined;
  for (;;) {
    const rows = await ctx.db
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
      })
      .from(milestones)
      .innerJoin(projects, eq(projects.id, milestones.projectId))
      .leftJoin(users, eq(users.id, milestones.verifierId))
      .where(
        and(
          filter,
          after ? sql`(milestones.due_date, milestones.id) > (${after.dueDate}::date, ${after.id}::uuid)` : undefined,
        ),
      )
      .orderBy(asc(milestones.dueDate), asc(milestones.id))
      .limit(EXPORT_BATCH);
    if (rows.length > 0) {
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
    if (rows.length < EXPORT_BATCH) return;
    const last = rows[rows.length - 1];
    after = { dueDate: last.dueDate, id: last.id };
  }
}
