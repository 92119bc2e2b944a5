// `npm run cli -- seed-scale`: a large, realistic portfolio for measuring how Tranche scales (bench/scale.ts).
// Rows are written in bulk batches, each in one transaction, and every batch appends its audit events to the
// hash chain itself (same hash function as appendAudit, under the same lock), so `audit verify` and
// `rollups verify` both pass on the result.
import { randomUUID } from "node:crypto";
import { deriveProjectStatus, type MilestoneStatus, todayIso } from "@tranche/domain";
import { desc, inArray, sql } from "drizzle-orm";
import { hashPassword } from "./auth/password";
import type { Db, Tx } from "./db/client";
import {
  auditEvents,
  disbursements,
  milestones,
  projectMembers,
  projects,
  users,
  verificationDecisions,
} from "./db/schema";
import { moneyParam } from "./lib/money";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from "./seed";
import { AUDIT_LOCK } from "./services/audit/append";
import { type AuditContent, auditHash, GENESIS_HASH } from "./services/audit/chain";
import { issueMissingCertificates } from "./services/certificates/facts";
import { refreshProjectRollups } from "./services/projects/rollup";

export interface ScaleOptions {
  projects: number;
  milestonesPerProject: number;
  /** How many of the projects the demo investor (investor@tranche.demo) is a member of. */
  investorProjects: number;
  log?: (line: string) => void;
}

export interface ScaleResult {
  projects: number;
  milestones: number;
  releases: number;
  auditEvents: number;
  users: number;
}

const DAY = 86_400_000;
const BATCH = 250;
const CURRENCIES = ["USD", "EUR", "GBP"] as const;
const PLACES = ["Lisbon", "Nairobi", "Austin", "Oslo", "Manila", "Lima", "Accra", "Porto", "Tucson", "Hanoi"];
const KINDS = ["Solar Farm", "Wind Park", "Water Works", "School Campus", "Clinic Network", "Housing Block"];

/** A small seeded generator, so two runs build the same shapes. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function insertChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

export async function seedScale(db: Db, options: ScaleOptions): Promise<ScaleResult> {
  const log = options.log ?? (() => {});
  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1);
  if (!anyUser) {
    log("Empty database: seeding the demo accounts first.");
    await seedDemoData(db);
  }
  const demo = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((a) => a.email),
      ),
    );
  const demoId = (email: string) => {
    const found = demo.find((u) => u.email === email);
    if (!found)
      throw new Error(`seed-scale needs the demo account ${email} (run it on a database seeded with demo data)`);
    return found.id;
  };
  const investor = demoId("investor@tranche.demo");
  const demoOwner = demoId("owner@tranche.demo");
  const demoVerifier = demoId("verifier@tranche.demo");

  const rand = random(11);
  const now = Date.now();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const run = randomUUID().slice(0, 8);
  const people = (role: "project_owner" | "verifier" | "investor", count: number) =>
    Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      email: `scale-${run}-${role}-${i}@scale.tranche.test`,
      name: `${role === "project_owner" ? "Owner" : role === "verifier" ? "Verifier" : "Investor"} ${run}-${i}`,
      role,
      organization: `Scale Org ${i % 40}`,
      passwordHash,
      expertise: role === "verifier" ? ["Engineering"] : [],
    }));
  const owners = people("project_owner", Math.max(1, Math.ceil(options.projects / 50)));
  const verifiers = people("verifier", Math.max(1, Math.ceil(options.projects / 200)));
  const investors = people("investor", Math.max(1, Math.ceil(options.projects / 100)));
  const newUsers = [...owners, ...verifiers, ...investors];

  const result: ScaleResult = { projects: 0, milestones: 0, releases: 0, auditEvents: 0, users: newUsers.length };
  // The demo investor's projects are spread evenly through the portfolio (old and new).
  const investorEvery = options.investorProjects > 0 ? options.projects / options.investorProjects : Infinity;
  const isInvestorProject = (i: number) =>
    Number.isFinite(investorEvery) && Math.floor(i / investorEvery) !== Math.floor((i - 1) / investorEvery);
  const span = 3 * 365 * DAY;
  const today = todayIso();

  /**
   * One transaction: the rows `work` writes, then their audit events appended to the chain under the audit lock,
   * then the rollups of the projects it wrote (after the audit events, so last activity is right).
   */
  const write = (work: (tx: Tx, audit: (event: AuditContent) => void) => Promise<string[]>) =>
    db.transaction(async (tx) => {
      const pending: AuditContent[] = [];
      const projectIds = await work(tx, (event) => pending.push(event));
      await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK})`);
      const [last] = await tx
        .select({ hash: auditEvents.hash })
        .from(auditEvents)
        .orderBy(desc(auditEvents.id))
        .limit(1);
      let prevHash = last?.hash ?? GENESIS_HASH;
      const rows = pending.map((event) => {
        // As appendAudit stores it: what is hashed is exactly what jsonb gives back.
        const content = { ...event, after: JSON.parse(JSON.stringify(event.after ?? null)) };
        const row = { ...content, prevHash, hash: auditHash(prevHash, content) };
        prevHash = row.hash;
        return row;
      });
      await insertChunks(rows, 2000, (chunk) => tx.insert(auditEvents).values(chunk));
      result.auditEvents += rows.length;
      if (projectIds.length) await refreshProjectRollups(tx, projectIds);
      // Each release's certificate, as completeRelease issues it (after the approval events the facts cite).
      await issueMissingCertificates(tx, projectIds);
    });

  await write(async (tx, audit) => {
    await insertChunks(newUsers, 1000, (chunk) => tx.insert(users).values(chunk));
    for (const u of newUsers)
      audit({
        createdAt: new Date(now - span - DAY),
        actorId: null,
        action: "user.seeded",
        entityType: "user",
        entityId: u.id,
        projectId: null,
        before: null,
        after: { email: u.email, role: u.role },
      });
    return [];
  });

  for (let start = 0; start < options.projects; start += BATCH) {
    const end = Math.min(options.projects, start + BATCH);
    await write(async (tx, audit) => {
      const projectRows: (typeof projects.$inferInsert)[] = [];
      const memberRows: (typeof projectMembers.$inferInsert)[] = [];
      const milestoneRows: (typeof milestones.$inferInsert)[] = [];
      const releaseRows: (typeof disbursements.$inferInsert)[] = [];
      const decisionRows: (typeof verificationDecisions.$inferInsert)[] = [];
      for (let i = start; i < end; i++) {
        const id = randomUUID();
        const createdAt = new Date(now - span + (i / options.projects) * (span - 30 * DAY));
        const owner = i % 97 === 0 ? demoOwner : owners[i % owners.length].id;
        const verifier = i % 89 === 0 ? demoVerifier : verifiers[i % verifiers.length].id;
        const currency = CURRENCIES[i % 3];
        const perMilestone = 50_000 + Math.floor(rand() * 20) * 5_000;
        const total = perMilestone * options.milestonesPerProject + 100_000;
        const name = `${PLACES[i % PLACES.length]} ${KINDS[Math.floor(i / PLACES.length) % KINDS.length]} ${i + 1}`;
        const statuses: { status: MilestoneStatus; dueDate: string }[] = [];
        let released = 0;
        for (let j = 0; j < options.milestonesPerProject; j++) {
          const milestoneId = randomUUID();
          const milestoneCreated = new Date(createdAt.getTime() + DAY + j * 3_600_000);
          // The first two milestones are decided and released; the third is in verification; some are rejected.
          const due = new Date(createdAt.getTime() + (j + 1) * 45 * DAY);
          const status: MilestoneStatus =
            j < 2 ? "verified" : j === 2 ? "in_verification" : j === 3 && i % 7 === 0 ? "rejected" : "pending";
          const decided = status === "verified" || status === "rejected";
          const decidedAt = new Date(Math.min(now - DAY, milestoneCreated.getTime() + 20 * DAY));
          const dueDate = todayIso(due);
          statuses.push({ status, dueDate });
          milestoneRows.push({
            id: milestoneId,
            projectId: id,
            title: `Tranche ${j + 1}: ${["Site survey", "Permits", "Foundations", "Structure", "Fit-out", "Commissioning"][j % 6]}`,
            description: "Generated for the portfolio scale benchmark.",
            dueDate,
            capitalAmount: moneyParam(perMilestone),
            status,
            verifierId: status === "pending" ? null : verifier,
            // An open verification started within the last day (a portfolio in its steady state, not thousands of
            // verifications overdue at once); decided ones started a day after the milestone was created.
            startedAt:
              status === "pending"
                ? null
                : status === "in_verification"
                  ? new Date(now - ((i % 20) + 1) * 3_600_000)
                  : new Date(milestoneCreated.getTime() + DAY),
            verificationDate: decided ? decidedAt : null,
            createdBy: owner,
            createdAt: milestoneCreated,
            updatedAt: decided ? decidedAt : milestoneCreated,
          });
          audit({
            createdAt: milestoneCreated,
            actorId: owner,
            action: "milestone.created",
            entityType: "milestone",
            entityId: milestoneId,
            projectId: id,
            before: null,
            after: { title: `Tranche ${j + 1}`, capitalAmount: perMilestone },
          });
          if (status === "verified") {
            const releaseId = randomUUID();
            const decisionId = randomUUID();
            const settled = j === 0;
            decisionRows.push({
              id: decisionId,
              milestoneId,
              round: 1,
              userId: verifier,
              kind: "approve",
              policyVersion: 0,
              amount: moneyParam(perMilestone),
              decidedAt,
            });
            released += perMilestone;
            releaseRows.push({
              id: releaseId,
              milestoneId,
              projectId: id,
              amount: moneyParam(perMilestone),
              currency,
              releasedBy: verifier,
              releasedAt: decidedAt,
              instructedAt: decidedAt,
              status: settled ? "settled" : "instructed",
              settlementReference: settled ? `SCALE-${i}-${j}` : null,
              settledAt: settled ? new Date(decidedAt.getTime() + 3_600_000) : null,
              updatedAt: decidedAt,
              decisionIds: [decisionId],
            });
            audit({
              createdAt: decidedAt,
              actorId: verifier,
              action: "milestone.approved",
              entityType: "milestone",
              entityId: milestoneId,
              projectId: id,
              before: null,
              after: { status: "verified", release: { disbursementId: releaseId, amount: perMilestone, currency } },
            });
          }
        }
        projectRows.push({
          id,
          name,
          description: `A ${KINDS[i % KINDS.length].toLowerCase()} in ${PLACES[i % PLACES.length]}, generated for the scale benchmark.`,
          location: PLACES[i % PLACES.length],
          totalCapital: moneyParam(total),
          currency,
          startDate: todayIso(createdAt),
          endDate: todayIso(new Date(createdAt.getTime() + (options.milestonesPerProject + 2) * 45 * DAY)),
          status: deriveProjectStatus({ totalCapital: total, disbursedCapital: released, milestones: statuses, today }),
          createdBy: owner,
          createdAt,
          updatedAt: createdAt,
        });
        memberRows.push(
          { projectId: id, userId: owner, role: "owner", createdAt },
          { projectId: id, userId: verifier, role: "verifier", createdAt },
          { projectId: id, userId: investors[i % investors.length].id, role: "investor", createdAt },
        );
        if (isInvestorProject(i)) memberRows.push({ projectId: id, userId: investor, role: "investor", createdAt });
        audit({
          createdAt,
          actorId: owner,
          action: "project.created",
          entityType: "project",
          entityId: id,
          projectId: id,
          before: null,
          after: { name, totalCapital: total, currency },
        });
      }
      await insertChunks(projectRows, 1000, (chunk) => tx.insert(projects).values(chunk));
      await insertChunks(memberRows, 3000, (chunk) => tx.insert(projectMembers).values(chunk));
      await insertChunks(milestoneRows, 1500, (chunk) => tx.insert(milestones).values(chunk));
      await insertChunks(decisionRows, 1500, (chunk) => tx.insert(verificationDecisions).values(chunk));
      await insertChunks(releaseRows, 1500, (chunk) => tx.insert(disbursements).values(chunk));
      result.projects += projectRows.length;
      result.milestones += milestoneRows.length;
      result.releases += releaseRows.length;
      return projectRows.map((p) => p.id as string);
    });
    log(`${end} of ${options.projects} projects written.`);
  }
  return result;
}
