import {
  CHECKLIST_ITEMS,
  type Currency,
  compareAssignments,
  type FieldAssignmentDto,
  type FieldVisitDto,
  fieldUrgency,
  type MilestoneStatus,
  sitePosition,
} from "@tranche/domain";
import { eq, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import type { DbOrTx } from "../../db/client";
import { milestones, projects } from "../../db/schema";
import { forbidden, notFound } from "../../errors";
import { toMoney } from "../../lib/money";
import { requireVisibleMilestone } from "../access";
import { evidenceList } from "../evidence/dto";
import { openAmount } from "../releases/sums";
import { toChecklist, toVerificationDto } from "../verification/dto";
import { awaitingVerifier } from "../verification/queue";

const columns = {
  milestoneId: milestones.id,
  title: milestones.title,
  projectId: projects.id,
  projectName: projects.name,
  location: projects.location,
  siteLatitude: projects.siteLatitude,
  siteLongitude: projects.siteLongitude,
  dueDate: milestones.dueDate,
  status: milestones.status,
  round: milestones.verificationRound,
  startedAt: milestones.startedAt,
  capitalAmount: milestones.capitalAmount,
  openAmount: openAmount(sql`${milestones}`),
  currency: projects.currency,
  checklist: milestones.checklist,
  evidenceCount: sql<number>`(select count(*)::int from evidence e where e.milestone_id = ${milestones.id})`,
  // Left a rejection by resubmitting it: a decision of an earlier round was voided by the owner's resubmission.
  resubmitted: sql<boolean>`exists (select 1 from verification_decisions d
    where d.milestone_id = ${milestones.id} and d.void_reason = 'resubmit')`,
};

async function assignmentRows(db: DbOrTx, where: SQL) {
  return db.select(columns).from(milestones).innerJoin(projects, eq(projects.id, milestones.projectId)).where(where);
}
type Row = Awaited<ReturnType<typeof assignmentRows>>[number];

function toAssignment(row: Row, slaDays: number, now: Date): FieldAssignmentDto {
  const status = row.status as MilestoneStatus;
  const checklist = toChecklist(row.checklist);
  return {
    milestoneId: row.milestoneId,
    title: row.title,
    projectId: row.projectId,
    projectName: row.projectName,
    location: row.location,
    site: sitePosition(row),
    dueDate: row.dueDate,
    status,
    round: row.round,
    urgency: fieldUrgency(
      { dueDate: row.dueDate, status, startedAt: row.startedAt?.toISOString() ?? null, resubmitted: row.resubmitted },
      slaDays,
      now,
    ),
    capitalAmount: toMoney(row.capitalAmount),
    openAmount: toMoney(row.openAmount),
    currency: row.currency as Currency,
    evidenceCount: Number(row.evidenceCount),
    checked: CHECKLIST_ITEMS.filter(({ key }) => checklist[key]).length,
  };
}

function requireVerifier(ctx: ServiceContext): void {
  if (ctx.actor.role !== "verifier") throw forbidden("Only verifiers have field assignments.");
}

/**
 * The signed-in verifier's open assignments — what waits on them (the queue's definition: pending, or in
 * verification by them, on a project they verify without a conflict) — most urgent first.
 */
export async function listAssignments(ctx: ServiceContext, now = new Date()): Promise<{ items: FieldAssignmentDto[] }> {
  requireVerifier(ctx);
  const rows = await assignmentRows(ctx.db, awaitingVerifier(ctx.actor.id, sql`${milestones}`));
  const items = rows.map((row) => toAssignment(row, ctx.env.VERIFICATION_SLA_DAYS, now)).sort(compareAssignments);
  return { items };
}

/**
 * What a site visit needs, in one answer the field app keeps on the device: the assignment, its verification state
 * (checklist, round, policy, permissions) and its evidence with capture tags and flags. Any assigned verifier may
 * read it, whether or not the milestone still waits on them (the app shows what changed).
 */
export async function getVisit(ctx: ServiceContext, milestoneId: string, now = new Date()): Promise<FieldVisitDto> {
  requireVerifier(ctx);
  const access = await requireVisibleMilestone(ctx.db, ctx.actor, milestoneId);
  if (!access.roles.includes("verifier")) throw notFound("Milestone");
  const [[row], verification, evidence] = await Promise.all([
    assignmentRows(ctx.db, eq(milestones.id, milestoneId)),
    toVerificationDto(ctx.db, access, ctx.actor),
    evidenceList(ctx.db, ctx.actor, access.milestone),
  ]);
  return {
    assignment: toAssignment(row, ctx.env.VERIFICATION_SLA_DAYS, now),
    verification,
    evidence,
    siteRadiusM: ctx.env.EVIDENCE_SITE_RADIUS_M,
    fetchedAt: now.toISOString(),
  };
}
