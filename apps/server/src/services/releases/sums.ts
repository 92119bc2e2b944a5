import { type SQL, sql } from "drizzle-orm";

// docs/domain.md "Money": "released" means instructed or settled; "settled" means the custodian confirmed
// payment. A failed release counts again once re-instructed; a cancelled one never does. Every figure sums through
// these two.

/** Released capital of the project whose id is `projectId` (a column reference such as sql`p.id`). */
export const releasedSum = (projectId: SQL) =>
  sql<string>`coalesce((select sum(d.amount) from disbursements d where d.project_id = ${projectId} and d.status in ('instructed', 'settled')), 0)`;

/** Settled capital of the project whose id is `projectId`. */
export const settledSum = (projectId: SQL) =>
  sql<string>`coalesce((select sum(d.amount) from disbursements d where d.project_id = ${projectId} and d.status = 'settled'), 0)`;

/**
 * What is still open on a milestone (`m` a milestones row reference such as sql`m`): its amount less its releases
 * that were not cancelled. Every pending or upcoming figure sums this, never the milestone's whole amount; the
 * function (migration 0018) is what the rollup view sums too.
 */
export const openAmount = (m: SQL) => sql<string>`milestone_open_amount(${m}.id, ${m}.capital_amount)`;
