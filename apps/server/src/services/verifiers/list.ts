import {
  type Page,
  seesVerifierDirectory,
  type VerifierDto,
  type VerifierSort,
  type verifierListQuerySchema,
} from "@tranche/domain";
import { and, eq, ilike, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { ServiceContext } from "../../context";
import { users } from "../../db/schema";
import { forbidden } from "../../errors";
import { byName, keyset, keysetPage, type SortSpec } from "../../lib/keyset";
import { containsPattern } from "../projects/list";
import { completedCount } from "./decided";
import { turnaroundOf, verifierTrackRecords } from "./turnaround";

const completed = completedCount(sql`users.id`);
const id = { expr: users.id, type: "uuid" } as const;
const VERIFIER_SORT_SPECS: Record<VerifierSort, SortSpec> = {
  name: byName(users.name, users.id),
  completed: { name: "completed", direction: "desc", keys: [{ expr: completed, type: "numeric" }, id] },
  // Unrated verifiers after every rated one.
  rating: {
    name: "rating",
    direction: "desc",
    keys: [{ expr: sql`coalesce(${users.rating}, 0)`, type: "numeric" }, id],
  },
};

/** The verifiers directory, a page at a time: users with the verifier role and their track record. */
export async function listVerifiers(
  ctx: ServiceContext,
  input: z.output<typeof verifierListQuerySchema>,
): Promise<Page<VerifierDto>> {
  if (!seesVerifierDirectory(ctx.actor.role)) throw forbidden("The verifiers directory is for investors and admins.");
  const spec = VERIFIER_SORT_SPECS[input.sort];
  const page = keyset(spec, input.cursor);
  const pattern = input.q ? containsPattern(input.q) : undefined;
  const rows = await ctx.db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      organization: users.organization,
      expertise: users.expertise,
      rating: users.rating,
      projects: sql<number>`(select count(distinct pm.project_id)::int from project_members pm
        where pm.user_id = users.id and pm.role = 'verifier')`,
      keysetKeys: page.keys,
    })
    .from(users)
    .where(
      and(
        eq(users.role, "verifier"),
        pattern
          ? or(ilike(users.name, pattern), ilike(users.email, pattern), ilike(users.organization, pattern))
          : undefined,
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(input.limit + 1);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, spec);
  const slaDays = ctx.env.VERIFICATION_SLA_DAYS;
  // Each one's turnaround and completed count, from one reading of their decisions (the completed sort computes
  // its key in the page's own statement, for the rows it orders; the figure shown is this one, the same count).
  const track = await verifierTrackRecords(ctx.db, slaDays, { ids: items.map((row) => row.id) });
  return {
    items: items.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      organization: row.organization,
      expertise: row.expertise,
      rating: row.rating === null ? null : Number(row.rating),
      completedVerifications: track.get(row.id)?.completed ?? 0,
      projectCount: Number(row.projects),
      turnaround: turnaroundOf(track, row.id, slaDays),
    })),
    nextCursor,
  };
}
