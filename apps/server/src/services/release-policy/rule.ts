import { DEFAULT_RELEASE_RULE, type ReleaseRule } from "@tranche/domain";
import { desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { releasePolicies } from "../../db/schema";
import { toMoney } from "../../lib/money";

export type PolicyRow = typeof releasePolicies.$inferSelect;

export function toRule(
  row:
    | Pick<PolicyRow, "version" | "requiredApprovals" | "thresholds" | "distinctOrganizations" | "cosignAbove">
    | undefined,
): ReleaseRule {
  if (!row) return DEFAULT_RELEASE_RULE;
  const thresholds = (row.thresholds as { minAmount: number; approvals: number }[]) ?? [];
  return {
    version: row.version,
    requiredApprovals: row.requiredApprovals,
    thresholds: thresholds.map((t) => ({ minAmount: toMoney(t.minAmount), approvals: t.approvals })),
    distinctOrganizations: row.distinctOrganizations,
    cosignAbove: row.cosignAbove === null ? null : toMoney(row.cosignAbove),
  };
}

/** The project's rule now: its highest policy version, or the default rule (version 0). */
export async function currentRule(db: DbOrTx, projectId: string): Promise<ReleaseRule> {
  const [row] = await db
    .select()
    .from(releasePolicies)
    .where(eq(releasePolicies.projectId, projectId))
    .orderBy(desc(releasePolicies.version))
    .limit(1);
  return toRule(row);
}
