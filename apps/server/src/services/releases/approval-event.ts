import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { auditEvents } from "../../db/schema";

/**
 * The audit event of the approval that made a release: the one naming it (`after.release.disbursementId`), not
 * merely the milestone's latest approval, which after a partial release belongs to the follow-up round.
 */
export async function releaseApprovalEvent(
  db: DbOrTx,
  release: { id: string; milestoneId: string },
): Promise<{ id: number; hash: string; createdAt: Date } | undefined> {
  const [event] = await db
    .select({ id: auditEvents.id, hash: auditEvents.hash, createdAt: auditEvents.createdAt })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entityType, "milestone"),
        eq(auditEvents.entityId, release.milestoneId),
        eq(auditEvents.action, "milestone.approved"),
        sql`${auditEvents.after}->'release'->>'disbursementId' = ${release.id}`,
      ),
    )
    .orderBy(asc(auditEvents.id))
    .limit(1);
  return event;
}
