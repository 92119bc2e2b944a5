import type { VerifierDto } from "@tranche/domain";
import { asc, eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { users } from "../../db/schema";
import { turnaroundOf, verifierTurnaround } from "./turnaround";

/** The verifiers directory: every user with the verifier role and their track record. */
export async function listVerifiers(ctx: ServiceContext): Promise<VerifierDto[]> {
  const slaDays = ctx.env.VERIFICATION_SLA_DAYS;
  const [rows, turnaround] = await Promise.all([
    ctx.db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        organization: users.organization,
        expertise: users.expertise,
        rating: users.rating,
        completed: sql<number>`(select count(*)::int from milestones m
        where m.verifier_id = users.id and m.status in ('verified', 'rejected'))`,
        projects: sql<number>`(select count(distinct pm.project_id)::int from project_members pm
        where pm.user_id = users.id and pm.role = 'verifier')`,
      })
      .from(users)
      .where(eq(users.role, "verifier"))
      .orderBy(asc(users.name)),
    verifierTurnaround(ctx.db, slaDays),
  ]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    organization: row.organization,
    expertise: row.expertise,
    rating: row.rating === null ? null : Number(row.rating),
    completedVerifications: Number(row.completed),
    projectCount: Number(row.projects),
    turnaround: turnaroundOf(turnaround, row.id, slaDays),
  }));
}
