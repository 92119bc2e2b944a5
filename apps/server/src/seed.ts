import { createHash, randomBytes, randomUUID } from "node:crypto";
import { CHECKLIST_ITEMS, type Checklist, EMPTY_CHECKLIST, type Role, todayIso } from "@tranche/domain";
import { count, eq, sql } from "drizzle-orm";
import { hashPassword } from "./auth/password";
import type { Deps } from "./context";
import type { Db, Tx } from "./db/client";
import {
  apiTokens,
  disbursements,
  milestones,
  projectMembers,
  projects,
  users,
  verificationDecisions,
} from "./db/schema";
import { moneyParam } from "./lib/money";
import { type AuditInput, appendAudit } from "./services/audit/append";
import { issueCertificate } from "./services/certificates/facts";
import { notify } from "./services/notifications/notify";
import { recomputeProjectStatus } from "./services/projects/recompute-status";

/** Documented in the README and listed on the login page while demo mode is on. */
export const DEMO_PASSWORD = "tranche-demo-2025";
export const DEMO_ACCOUNTS: { email: string; name: string; role: Role; organization: string | null }[] = [
  { email: "investor@tranche.demo", name: "Isabel Moreau", role: "investor", organization: "Northwind Pension Fund" },
  { email: "owner@tranche.demo", name: "Owen Adeyemi", role: "project_owner", organization: "Solaris Build Co." },
  { email: "verifier@tranche.demo", name: "Vera Lindqvist", role: "verifier", organization: "Meridian Assurance" },
  { email: "admin@tranche.demo", name: "Avery Chen", role: "admin", organization: "Tranche" },
];

/** The two further verifiers of the demo's story. */
const THEO_EMAIL = "theo.park@tranche.demo";
const SOFIA_EMAIL = "sofia.reyes@tranche.demo";

/** Every account the demo seeds, and only those: in demo mode they may act before setting up a second factor. */
export const DEMO_EMAILS: ReadonlySet<string> = new Set([
  ...DEMO_ACCOUNTS.map((a) => a.email),
  THEO_EMAIL,
  SOFIA_EMAIL,
]);

export async function shouldSeed(deps: Deps): Promise<boolean> {
  const mode = deps.env.DEMO_DATA;
  if (mode === "false") return false;
  if (mode === "auto" && deps.database.kind !== "pglite") return false;
  const [{ n }] = await deps.db.select({ n: count() }).from(users);
  return n === 0;
}

export function demoMode(deps: Deps): boolean {
  return deps.env.DEMO_DATA === "true" || (deps.env.DEMO_DATA === "auto" && deps.database.kind === "pglite");
}

/**
 * Whether this is one of the seeded demo accounts in demo mode, which act without a second factor until they set
 * one up: only those, not any address at the demo's domain.
 */
export function demoAccount(deps: Deps, email: string): boolean {
  return demoMode(deps) && DEMO_EMAILS.has(email);
}

const day = 86_400_000;
const hour = 3_600_000;

/** Audit events of the demo's history, each at the time it happened, appended in time order at the end. */
type Timeline = { at: Date; input: AuditInput; afterwards?: () => Promise<void> }[];

/** A seeded release's answer from the custodian, with the audit events a real one leaves. Resolves to its time. */
async function seedSettlement(
  tx: Tx,
  timeline: Timeline,
  release: typeof disbursements.$inferSelect,
  answer: { reference: string; settledDaysAgo: number; failedFirst?: string },
  custodian: { id: string; name: string },
  adminId: string,
): Promise<Date> {
  const via = { apiToken: custodian };
  const base = { milestoneId: release.milestoneId, instructionId: release.instructionId };
  // Settled after the approval, and never in the future.
  const settledAt = new Date(
    Math.min(
      Date.now() - hour,
      Math.max(Date.now() - answer.settledDaysAgo * day, release.releasedAt.getTime() + 2 * hour),
    ),
  );
  // A failure and its re-instruction fall between the approval and the settlement.
  const between = (share: number) =>
    new Date(release.releasedAt.getTime() + (settledAt.getTime() - release.releasedAt.getTime()) * share);
  let instructionId = release.instructionId;
  if (answer.failedFirst) {
    timeline.push({
      at: between(1 / 3),
      input: {
        actorId: custodian.id,
        action: "release.failed",
        entityType: "disbursement",
        entityId: release.id,
        projectId: release.projectId,
        before: { ...base, status: "instructed" },
        after: { ...base, status: "failed", failureReason: answer.failedFirst, ...via },
      },
    });
    instructionId = randomUUID();
    timeline.push({
      at: between(2 / 3),
      input: {
        actorId: adminId,
        action: "release.reinstructed",
        entityType: "disbursement",
        entityId: release.id,
        projectId: release.projectId,
        before: { ...base, status: "failed", failureReason: answer.failedFirst },
        after: { ...base, instructionId, status: "instructed" },
      },
    });
  }
  await tx
    .update(disbursements)
    .set({ status: "settled", instructionId, settlementReference: answer.reference, settledAt, updatedAt: settledAt })
    .where(eq(disbursements.id, release.id));
  timeline.push({
    at: settledAt,
    input: {
      actorId: custodian.id,
      action: "release.settled",
      entityType: "disbursement",
      entityId: release.id,
      projectId: release.projectId,
      before: { ...base, instructionId, status: "instructed" },
      after: { ...base, instructionId, status: "settled", settlementReference: answer.reference, settledAt, ...via },
    },
  });
  return settledAt;
}
const dateIn = (days: number) => todayIso(new Date(Date.now() + days * day));
const checked = (n: number): Checklist =>
  Object.fromEntries(CHECKLIST_ITEMS.map((item, i) => [item.key, i < n])) as Checklist;

/** One account per role, extra verifiers, and projects with milestones in every status. */
export async function seedDemoData(db: Db): Promise<void> {
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  // The demo's story in time: the accounts join first, then the custodian's token is issued, then each project
  // is set up and its milestones defined, started and decided; the audit record tells it in that order.
  const timeline: Timeline = [];
  const joined = -430 * day;
  let joinedSoFar = 0;
  await db.transaction(async (tx) => {
    const insertUser = async (u: {
      email: string;
      name: string;
      role: Role;
      organization: string | null;
      expertise?: string[];
      rating?: string;
    }) => {
      const createdAt = at(joined + joinedSoFar++ * hour);
      const [row] = await tx
        .insert(users)
        .values({
          ...u,
          passwordHash,
          expertise: u.expertise ?? [],
          rating: u.rating ?? null,
          createdAt,
          updatedAt: createdAt,
          emailVerifiedAt: createdAt,
          // The demo's verifiers come from organizations an admin has checked (what release rules compare).
          ...(u.role === "verifier" && u.organization
            ? { verifiedOrganization: u.organization, organizationVerifiedAt: new Date(createdAt.getTime() + day) }
            : {}),
        })
        .returning({ id: users.id });
      timeline.push({
        at: createdAt,
        input: {
          actorId: null,
          action: "user.seeded",
          entityType: "user",
          entityId: row.id,
          after: { email: u.email, role: u.role },
        },
      });
      await notify(tx, [row.id], {
        title: "Welcome to Tranche",
        message: `Welcome, ${u.name}. This is a demo workspace with sample projects.`,
        category: "welcome",
        link: "/dashboard",
      });
      return row.id;
    };
    const [investor, owner, verifier, admin] = [
      await insertUser(DEMO_ACCOUNTS[0]),
      await insertUser(DEMO_ACCOUNTS[1]),
      await insertUser({
        ...DEMO_ACCOUNTS[2],
        expertise: ["Construction", "Renewable energy", "Infrastructure"],
        rating: "4.8",
      }),
      await insertUser(DEMO_ACCOUNTS[3]),
    ];
    const verifier2 = await insertUser({
      email: THEO_EMAIL,
      name: "Theo Park",
      role: "verifier",
      organization: null,
      expertise: ["Water utilities", "Environmental compliance"],
      rating: "4.6",
    });
    await insertUser({
      email: SOFIA_EMAIL,
      name: "Sofia Reyes",
      role: "verifier",
      organization: "Atlas Technical Audit",
      expertise: ["Healthcare facilities", "Procurement"],
      rating: "4.9",
    });

    const verifierOrganization = new Map<string, string | null>([[verifier, DEMO_ACCOUNTS[2].organization]]);

    type M = {
      title: string;
      description: string;
      due: number;
      amount: number;
      status: string;
      checklist?: number;
      comments?: string;
      verifier?: string;
      /** The custodian's answer to a verified milestone's release (default: still instructed). */
      release?: { reference: string; settledDaysAgo: number; failedFirst?: string };
    };
    // The demo custodian's token: only a hash of random bytes is stored, so it cannot be used; it is the
    // actor of the seeded settlements, as a real custodian's token would be.
    const [custodian] = await tx
      .insert(apiTokens)
      .values({
        name: "Northwind Custody (demo)",
        tokenHash: createHash("sha256").update(randomBytes(32)).digest("hex"),
        prefix: "trk_demo00",
        scopes: ["releases:read", "releases:write"],
        createdBy: admin,
        // Issued before the first release it answered; last used at its latest answer (set below).
        createdAt: at(-300 * day),
        lastUsedAt: null,
      })
      .returning({ id: apiTokens.id, name: apiTokens.name });
    let custodianLastUsed: Date | null = null;
    const addProject = async (p: {
      name: string;
      description: string;
      location: string;
      /** The site's latitude and longitude (decimal degrees). */
      site: [number, number];
      total: number;
      currency: "USD" | "EUR" | "GBP";
      start: number;
      end: number | null;
      investors: string[];
      verifiers: string[];
      milestones: M[];
    }) => {
      // The story the timestamps tell: the project is set up a few days before it starts (or weeks before now when
      // it starts later), each milestone is defined the next day, verification starts after that and before any
      // decision, and every decision lies in the past.
      const projectCreated = (Math.min(p.start, -21) - 5) * day;
      const [project] = await tx
        .insert(projects)
        .values({
          name: p.name,
          description: p.description,
          location: p.location,
          siteLatitude: p.site[0],
          siteLongitude: p.site[1],
          totalCapital: moneyParam(p.total),
          currency: p.currency,
          startDate: dateIn(p.start),
          endDate: p.end === null ? null : dateIn(p.end),
          createdBy: owner,
          createdAt: at(projectCreated),
          updatedAt: at(projectCreated),
        })
        .returning({ id: projects.id });
      timeline.push({
        at: at(projectCreated),
        input: {
          actorId: owner,
          action: "project.created",
          entityType: "project",
          entityId: project.id,
          projectId: project.id,
          after: { name: p.name, totalCapital: p.total, currency: p.currency },
        },
      });
      const members = [
        { userId: owner, role: "owner" },
        // The first investor leads: they may set the project's release policy.
        ...p.investors.map((userId, i) => ({ userId, role: "investor", isLead: i === 0 })),
        ...p.verifiers.map((userId) => ({ userId, role: "verifier", isLead: false })),
      ];
      await tx.insert(projectMembers).values(members.map((m) => ({ ...m, projectId: project.id })));
      for (const [i, m] of p.milestones.entries()) {
        const decided = m.status === "verified" || m.status === "rejected";
        const started = decided || m.status === "in_verification";
        const verifierId = started ? (m.verifier ?? p.verifiers[0]) : null;
        const createdAt = projectCreated + day + i * hour;
        const decidedAt = Math.max(Math.min(m.due, -1) * day, createdAt + 2 * day);
        const latestStart = decided ? decidedAt - day : -hour;
        const startedAt = Math.min(Math.max((m.due - 10) * day, createdAt + day), latestStart);
        const [row] = await tx
          .insert(milestones)
          .values({
            projectId: project.id,
            title: m.title,
            description: m.description,
            dueDate: dateIn(m.due),
            capitalAmount: moneyParam(m.amount),
            status: m.status,
            verifierId,
            startedAt: started ? at(startedAt) : null,
            verificationDate: decided ? at(decidedAt) : null,
            comments: m.comments ?? null,
            checklist: m.checklist === undefined ? EMPTY_CHECKLIST : checked(m.checklist),
            createdBy: owner,
            createdAt: at(createdAt),
            updatedAt: at(decided ? decidedAt : started ? startedAt : createdAt),
          })
          .returning({ id: milestones.id });
        timeline.push({
          at: at(createdAt),
          input: {
            actorId: owner,
            action: "milestone.created",
            entityType: "milestone",
            entityId: row.id,
            projectId: project.id,
            after: { title: m.title, capitalAmount: m.amount },
          },
        });
        if (started && verifierId) {
          timeline.push({
            at: at(startedAt),
            input: {
              actorId: verifierId,
              action: "milestone.verification_started",
              entityType: "milestone",
              entityId: row.id,
              projectId: project.id,
              before: { status: "pending" },
              after: { status: "in_verification", verifierId, startedAt: at(startedAt) },
            },
          });
        }
        if (m.status === "rejected" && verifierId) {
          await tx.insert(verificationDecisions).values({
            milestoneId: row.id,
            round: 1,
            userId: verifierId,
            kind: "reject",
            comment: m.comments ?? null,
            policyVersion: 0,
            organization: verifierOrganization.get(verifierId) ?? null,
            decidedAt: at(decidedAt),
          });
          timeline.push({
            at: at(decidedAt),
            input: {
              actorId: verifierId,
              action: "milestone.rejected",
              entityType: "milestone",
              entityId: row.id,
              projectId: project.id,
              before: { status: "in_verification" },
              after: { status: "rejected", comments: m.comments ?? null },
            },
          });
        }
        if (m.status === "verified" && verifierId) {
          const approvedAt = at(decidedAt);
          const [approval] = await tx
            .insert(verificationDecisions)
            .values({
              milestoneId: row.id,
              round: 1,
              userId: verifierId,
              kind: "approve",
              comment: m.comments ?? null,
              policyVersion: 0,
              organization: verifierOrganization.get(verifierId) ?? null,
              amount: moneyParam(m.amount),
              decidedAt: approvedAt,
            })
            .returning({ id: verificationDecisions.id });
          const [release] = await tx
            .insert(disbursements)
            .values({
              milestoneId: row.id,
              projectId: project.id,
              amount: moneyParam(m.amount),
              currency: p.currency,
              releasedBy: verifierId,
              releasedAt: approvedAt,
              instructedAt: approvedAt,
              updatedAt: approvedAt,
              decisionIds: [approval.id],
            })
            .returning();
          timeline.push({
            at: approvedAt,
            input: {
              actorId: verifierId,
              action: "milestone.approved",
              entityType: "milestone",
              entityId: row.id,
              projectId: project.id,
              after: {
                status: "verified",
                released: m.amount,
                release: { disbursementId: release.id, instructionId: release.instructionId },
              },
            },
            // Issued with the release, as completeRelease does: right after the approval event its facts cite.
            afterwards: () => issueCertificate(tx, release.id, verifierId, approvedAt),
          });
          if (m.release) {
            const answered = await seedSettlement(tx, timeline, release, m.release, custodian, admin);
            if (!custodianLastUsed || answered > custodianLastUsed) custodianLastUsed = answered;
          }
        }
      }
      await recomputeProjectStatus(tx, project.id);
    };

    await addProject({
      name: "Mojave Solar Farm Phase II",
      description:
        "A 120 MW photovoltaic expansion with battery storage on the existing Mojave site, delivered in four tranches tied to grid-connection milestones.",
      location: "Boulder City, Nevada",
      site: [35.80214, -114.97936],
      total: 12_000_000,
      currency: "USD",
      start: -120,
      end: 300,
      investors: [investor],
      verifiers: [verifier],
      milestones: [
        {
          title: "Site preparation and permits",
          description: "Grading, access roads and the county construction permit for the 480-acre expansion.",
          due: -30,
          amount: 3_000_000,
          status: "verified",
          checklist: 6,
          comments: "Permits and grading survey match the plan. Approved.",
        },
        {
          title: "Panel and inverter delivery",
          description: "Delivery and inspection of 220,000 bifacial panels and 40 string inverters to the site.",
          due: 2,
          amount: 3_500_000,
          status: "in_verification",
          checklist: 3,
        },
        {
          title: "Battery storage installation",
          description: "Installation and commissioning of the 60 MWh lithium iron phosphate storage block.",
          due: 60,
          amount: 3_000_000,
          status: "pending",
        },
        {
          title: "Grid interconnection",
          description: "Utility acceptance test and the signed interconnection agreement with the grid operator.",
          due: 150,
          amount: 2_500_000,
          status: "pending",
        },
      ],
    });
    await addProject({
      name: "Harbor District Affordable Housing",
      description:
        "Two hundred and forty energy-efficient rental homes on the former harbour warehouse site, with ground-floor community space.",
      location: "Rotterdam, Netherlands",
      site: [51.90718, 4.43329],
      total: 8_500_000,
      currency: "EUR",
      start: -200,
      end: 400,
      investors: [investor],
      verifiers: [verifier],
      milestones: [
        {
          title: "Foundations and piling",
          description: "Pile driving and concrete foundations for blocks A and B, with the geotechnical report.",
          due: -45,
          amount: 2_000_000,
          status: "verified",
          checklist: 6,
          comments: "Piling logs and inspection certificates are complete.",
        },
        {
          title: "Structural frame, block A",
          description: "Timber-concrete hybrid frame for block A up to the roof level, with fire-safety sign-off.",
          due: -10,
          amount: 2_500_000,
          status: "rejected",
          checklist: 4,
          comments: "Fire-safety certificate for floors 4 to 6 is missing. Please upload it and resubmit.",
        },
        {
          title: "Facade and glazing",
          description: "Triple-glazed facade panels for both blocks, including the air-tightness test results.",
          due: 40,
          amount: 2_000_000,
          status: "delayed",
        },
        {
          title: "Handover and occupancy permit",
          description: "Occupancy permit from the municipality and handover to the housing association.",
          due: 220,
          amount: 2_000_000,
          status: "pending",
        },
      ],
    });
    await addProject({
      name: "Rural Clinics Network",
      description: "Six solar-powered primary care clinics serving 90,000 people across two counties.",
      location: "Kisumu, Kenya",
      site: [-0.10221, 34.76171],
      total: 3_000_000,
      currency: "USD",
      start: -400,
      end: -20,
      investors: [investor],
      verifiers: [verifier],
      milestones: [
        {
          title: "First three clinics built",
          description: "Construction and equipment of the Ahero, Muhoroni and Kombewa clinics.",
          due: -200,
          amount: 1_500_000,
          status: "verified",
          checklist: 6,
          comments: "Site visits confirmed all three clinics operating.",
          release: { reference: "NWC-2025-118204", settledDaysAgo: 196 },
        },
        {
          title: "Remaining clinics and staffing",
          description: "Construction of the last three clinics and recruitment of the nursing staff.",
          due: -40,
          amount: 1_500_000,
          status: "verified",
          checklist: 6,
          comments: "Staffing contracts and commissioning reports verified.",
          release: {
            reference: "NWC-2026-004117",
            settledDaysAgo: 33,
            failedFirst: "The receiving bank returned the payment: beneficiary account details did not match.",
          },
        },
      ],
    });
    await addProject({
      name: "Aire Valley Water Treatment Upgrade",
      description:
        "Replacement of the membrane filtration units and a new sludge treatment line for 300,000 residents.",
      location: "Leeds, United Kingdom",
      site: [53.78362, -1.50512],
      total: 5_000_000,
      currency: "GBP",
      start: -60,
      end: 420,
      investors: [investor],
      verifiers: [verifier2],
      milestones: [
        {
          title: "Detailed engineering design",
          description: "Approved engineering design package and the environmental permit variation.",
          due: 10,
          amount: 750_000,
          status: "in_verification",
          checklist: 1,
        },
        {
          title: "Membrane units procured",
          description: "Purchase orders and factory acceptance tests for the twelve membrane filtration units.",
          due: 90,
          amount: 1_750_000,
          status: "pending",
        },
        {
          title: "Sludge line commissioning",
          description: "Commissioning of the new sludge treatment line and the first month of performance data.",
          due: 300,
          amount: 1_500_000,
          status: "pending",
        },
      ],
    });
    await addProject({
      name: "Lisbon Data Centre Retrofit",
      description:
        "Cooling retrofit of a 12 MW data centre to cut energy use by a third, awaiting verifier assignment.",
      location: "Lisbon, Portugal",
      site: [38.77291, -9.16105],
      total: 4_200_000,
      currency: "EUR",
      start: 15,
      end: null,
      investors: [],
      verifiers: [],
      milestones: [
        {
          title: "Cooling design approved",
          description: "Approved design of the liquid cooling loop and the heat-reuse connection.",
          due: 45,
          amount: 1_200_000,
          status: "pending",
        },
      ],
    });
    // Each welcome arrived when its account joined.
    await tx.execute(sql`update notifications n set created_at = u.created_at from users u
      where n.user_id = u.id and n.category = 'welcome'`);
    if (custodianLastUsed) {
      await tx.update(apiTokens).set({ lastUsedAt: custodianLastUsed }).where(eq(apiTokens.id, custodian.id));
    }
    // The audit record in time order (a stable sort keeps same-instant events in the order they happened).
    timeline.sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const event of timeline) {
      await appendAudit(tx, { ...event.input, createdAt: event.at });
      await event.afterwards?.();
    }
  });
}
