// Test data built straight into the database, so each test file makes exactly what it needs.
import type { MilestoneStatus } from "@tranche/domain";
import { todayIso } from "@tranche/domain";
import { disbursements, milestones, projectMembers, projects, verificationDecisions } from "../src/db/schema";
import { moneyParam } from "../src/lib/money";
import { recomputeProjectStatus } from "../src/services/projects/recompute-status";
import { refreshProjectRollup } from "../src/services/projects/rollup";
import type { TestApp, TestUser } from "./harness";

export const daysFromNow = (days: number) => todayIso(new Date(Date.now() + days * 86_400_000));

export async function makeProject(
  t: TestApp,
  options: {
    owner: TestUser;
    investors?: TestUser[];
    verifiers?: TestUser[];
    name?: string;
    totalCapital?: number;
    currency?: "USD" | "EUR" | "GBP";
  },
) {
  const [project] = await t.deps.db
    .insert(projects)
    .values({
      name: options.name ?? "Test project",
      description: "A project built by a test factory.",
      location: "Test City",
      totalCapital: moneyParam(options.totalCapital ?? 1_000_000),
      currency: options.currency ?? "USD",
      startDate: daysFromNow(-10),
      endDate: daysFromNow(300),
      createdBy: options.owner.id,
    })
    .returning();
  const members = [
    { userId: options.owner.id, role: "owner" },
    ...(options.investors ?? []).map((u) => ({ userId: u.id, role: "investor" })),
    ...(options.verifiers ?? []).map((u) => ({ userId: u.id, role: "verifier" })),
  ];
  await t.deps.db.insert(projectMembers).values(members.map((m) => ({ ...m, projectId: project.id })));
  await refreshProjectRollup(t.deps.db, project.id);
  return project;
}

export async function makeMilestone(
  t: TestApp,
  project: { id: string; currency?: string },
  options: {
    title?: string;
    capitalAmount?: number;
    dueInDays?: number;
    status?: MilestoneStatus;
    verifier?: TestUser;
  } = {},
) {
  const status = options.status ?? "pending";
  const now = new Date();
  const [milestone] = await t.deps.db
    .insert(milestones)
    .values({
      projectId: project.id,
      title: options.title ?? "Test milestone",
      description: "A milestone built by a test factory.",
      dueDate: daysFromNow(options.dueInDays ?? 30),
      capitalAmount: moneyParam(options.capitalAmount ?? 100_000),
      status,
      verifierId: options.verifier?.id ?? null,
      // One instant for both: started and decided at once, never decided before it started.
      verificationDate: status === "verified" || status === "rejected" ? now : null,
      startedAt: status === "pending" || status === "delayed" ? null : now,
    })
    .returning();
  if (status === "verified") {
    if (!options.verifier) throw new Error("a verified milestone needs options.verifier");
    // A release names approvals by the project's verifiers (the database checks it): the verifier is one.
    await t.deps.db
      .insert(projectMembers)
      .values({ projectId: project.id, userId: options.verifier.id, role: "verifier" })
      .onConflictDoNothing();
    const [approval] = await t.deps.db
      .insert(verificationDecisions)
      .values({
        milestoneId: milestone.id,
        round: milestone.verificationRound,
        userId: options.verifier.id,
        kind: "approve",
        policyVersion: 0,
        amount: milestone.capitalAmount,
      })
      .returning({ id: verificationDecisions.id });
    await t.deps.db.insert(disbursements).values({
      milestoneId: milestone.id,
      projectId: project.id,
      amount: milestone.capitalAmount,
      currency: project.currency ?? "USD",
      releasedBy: options.verifier.id,
      round: milestone.verificationRound,
      decisionIds: [approval.id],
    });
  }
  await recomputeProjectStatus(t.deps.db, project.id);
  return milestone;
}
