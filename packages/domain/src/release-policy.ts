// Release rules (docs/domain.md "Release rules"): how many verifiers must approve a milestone, whether they must come
// from different organizations, and above which amount an investor countersigns before the release is created.
import { z } from "zod";
import { formatMoney } from "./format";
import { moneyAmount } from "./schemas";

export const MAX_REQUIRED_APPROVALS = 5;
/** A rejection under a stored policy must say enough to act on. */
export const POLICY_REJECTION_MIN = 10;

const approvals = (label: string) =>
  z
    .number({ error: `${label} must be a whole number from 1 to ${MAX_REQUIRED_APPROVALS}.` })
    .int({ error: `${label} must be a whole number from 1 to ${MAX_REQUIRED_APPROVALS}.` })
    .min(1, { error: `${label} must be a whole number from 1 to ${MAX_REQUIRED_APPROVALS}.` })
    .max(MAX_REQUIRED_APPROVALS, { error: `${label} must be a whole number from 1 to ${MAX_REQUIRED_APPROVALS}.` });
// Whole currency units from 1, like a milestone's amount.
const amount = (label: string) => moneyAmount(label, 1);

export const releasePolicySchema = z
  .strictObject({
    requiredApprovals: approvals("Required approvals"),
    thresholds: z
      .array(
        z.strictObject({ minAmount: amount("Threshold amount"), approvals: approvals("Approvals for the threshold") }),
      )
      .max(5, { error: "Use at most 5 thresholds." })
      .default([]),
    distinctOrganizations: z.boolean({ error: "Choose whether verifiers must come from different organizations." }),
    cosignAbove: amount("Countersign amount").nullable(),
  })
  .refine((p) => new Set(p.thresholds.map((t) => t.minAmount)).size === p.thresholds.length, {
    error: "Each threshold needs a different amount.",
    path: ["thresholds"],
  });
export type ReleasePolicyInput = z.input<typeof releasePolicySchema>;

/** A version of a project's release rule, as stored and as the API answers it. */
export const releaseRuleSchema = z.strictObject({
  version: z.number().int(),
  requiredApprovals: z.number().int(),
  thresholds: z.array(z.strictObject({ minAmount: z.number(), approvals: z.number().int() })),
  distinctOrganizations: z.boolean(),
  cosignAbove: z.number().nullable(),
});
export type ReleaseRule = z.infer<typeof releaseRuleSchema>;

/** Version 0: the rule every project follows until a policy is set (one approval, no countersignature). */
export const DEFAULT_RELEASE_RULE: ReleaseRule = {
  version: 0,
  requiredApprovals: 1,
  thresholds: [],
  distinctOrganizations: false,
  cosignAbove: null,
};

/** Approvals a milestone of `capitalAmount` needs: the base number, raised by every threshold it reaches. */
export function requiredApprovalsFor(rule: ReleaseRule, capitalAmount: number): number {
  return rule.thresholds
    .filter((t) => capitalAmount >= t.minAmount)
    .reduce((needed, t) => Math.max(needed, t.approvals), rule.requiredApprovals);
}

/**
 * Whether a release of a milestone needs an investor's countersignature: when the milestone's amount is above the
 * rule's, so that paying it in parts each below the line does not pass without one (as the approvals a milestone
 * needs follow its amount, not its release's).
 */
export function needsCountersign(rule: ReleaseRule, milestoneAmount: number): boolean {
  return rule.cosignAbove !== null && milestoneAmount > rule.cosignAbove;
}

/**
 * Why a policy cannot be met by the verifiers assigned now (null when it can): the form and the server refuse it
 * with this message, naming both numbers. `field` is the input that asks for too many.
 */
export function unreachableApprovals(
  rule: Pick<ReleaseRule, "requiredApprovals" | "thresholds">,
  assignedVerifiers: number,
): { field: "requiredApprovals" | "thresholds"; message: string } | null {
  const assigned =
    assignedVerifiers === 0
      ? "no verifier is assigned to this project"
      : `only ${assignedVerifiers} ${assignedVerifiers === 1 ? "verifier is" : "verifiers are"} assigned to this project`;
  if (rule.requiredApprovals > assignedVerifiers) {
    return {
      field: "requiredApprovals",
      message: `The policy asks for ${rule.requiredApprovals} ${rule.requiredApprovals === 1 ? "approval" : "approvals"} but ${assigned}. Assign more verifiers first, or ask for fewer approvals.`,
    };
  }
  const most = Math.max(0, ...rule.thresholds.map((t) => t.approvals));
  if (most > assignedVerifiers) {
    return {
      field: "thresholds",
      message: `A threshold asks for ${most} approvals but ${assigned}. Assign more verifiers first, or ask for fewer approvals.`,
    };
  }
  return null;
}

/** "2 of 3 assigned verifiers from different organizations; investor countersign above $1,000,000". */
export function policyStatement(rule: ReleaseRule, assignedVerifiers: number, currency = "USD"): string {
  const noun = assignedVerifiers === 1 ? "verifier" : "verifiers";
  const approvals = `${rule.requiredApprovals} ${rule.requiredApprovals === 1 ? "approval" : "approvals"}`;
  const parts = [
    assignedVerifiers === 0
      ? `${approvals} from assigned verifiers${rule.distinctOrganizations ? " of different organizations" : ""} (none assigned yet)`
      : `${rule.requiredApprovals} of ${assignedVerifiers} assigned ${noun}${rule.distinctOrganizations ? " from different organizations" : ""}`,
    ...[...rule.thresholds]
      .sort((a, b) => a.minAmount - b.minAmount)
      .map((t) => `${t.approvals} for milestones of ${formatMoney(t.minAmount, currency)} or more`),
  ];
  if (rule.cosignAbove !== null) parts.push(`investor countersign above ${formatMoney(rule.cosignAbove, currency)}`);
  return parts.join("; ");
}
