import { DEFAULT_RELEASE_RULE, policyStatement, type ReleasePolicyDto } from "@tranche/domain";
import { and, count, desc, eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { projectMembers, releasePolicies, users } from "../../db/schema";
import { type ProjectAccess, requireVisibleProject } from "../access";
import { toRule } from "./rule";

/** Admins, and the project's lead investor, may change the policy. */
export async function isLeadInvestor(db: DbOrTx, projectId: string, userId: string): Promise<boolean> {
  // Named lead as an investor member, and an investor still: a role changed since leaves the mark without its rights.
  const [row] = await db
    .select({ isLead: projectMembers.isLead })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(
      and(
        eq(projectMembers.projectId, projectId),
        eq(projectMembers.userId, userId),
        eq(projectMembers.role, "investor"),
        eq(users.role, "investor"),
      ),
    );
  return row?.isLead === true;
}

export async function verifierCount(db: DbOrTx, projectId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.role, "verifier")));
  return row?.n ?? 0;
}

/** The policy now in force, its earlier versions (newest first), and whether the caller may change it. */
export async function releasePolicyDto(db: DbOrTx, access: ProjectAccess, actorId: string): Promise<ReleasePolicyDto> {
  const { project } = access;
  const rows = await db
    .select({ policy: releasePolicies, createdByName: users.name })
    .from(releasePolicies)
    .leftJoin(users, eq(users.id, releasePolicies.createdBy))
    .where(eq(releasePolicies.projectId, project.id))
    .orderBy(desc(releasePolicies.version));
  const verifiers = await verifierCount(db, project.id);
  const versions = rows.map(({ policy, createdByName }) => {
    const rule = toRule(policy);
    return {
      ...rule,
      statement: policyStatement(rule, verifiers, project.currency),
      createdAt: policy.createdAt.toISOString(),
      createdByName,
    };
  });
  const current = versions[0] ?? {
    ...DEFAULT_RELEASE_RULE,
    statement: policyStatement(DEFAULT_RELEASE_RULE, verifiers, project.currency),
    createdAt: null,
    createdByName: null,
  };
  return {
    projectId: project.id,
    currency: project.currency as ReleasePolicyDto["currency"],
    assignedVerifiers: verifiers,
    current,
    history: versions,
    canEdit: access.isAdmin || (await isLeadInvestor(db, project.id, actorId)),
  };
}

export async function getReleasePolicy(ctx: ServiceContext, projectId: string): Promise<ReleasePolicyDto> {
  const access = await requireVisibleProject(ctx.db, ctx.actor, projectId);
  return releasePolicyDto(ctx.db, access, ctx.actor.id);
}
