import { createRoute } from "@hono/zod-openapi";
import {
  approveSchema,
  assignDisputeSchema,
  auditEventSchema,
  checklistUpdateSchema,
  countersignSchema,
  disputeSchema,
  itemsOf,
  pageOf,
  rejectSchema,
  reportListQuerySchema,
  reportSchema,
  seenStateFields,
  verificationReportSchema,
  verificationSchema,
  verifierPendingQuerySchema,
  verifierQueuePageSchema,
  verifierQueueSchema,
} from "@tranche/domain";
import type { Context } from "hono";
import { z } from "zod";
import { serviceContext } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import type { AppEnv } from "../context";
import {
  ApiRoutes,
  body,
  errors,
  idempotencyHeaders,
  idempotencyKey,
  idParams,
  json,
  jsonBody,
  optionalJson,
  param,
  query,
  SESSION,
} from "../openapi/routes";
import { milestoneHistory } from "../services/audit/history";
import { approveMilestone } from "../services/verification/approve";
import { updateChecklist } from "../services/verification/checklist";
import { countersignMilestone } from "../services/verification/countersign";
import { delayMilestone } from "../services/verification/delay";
import { assignDispute, openDispute } from "../services/verification/dispute";
import { completedQuery, completedVerifications, pendingPage, verifierQueue } from "../services/verification/queue";
import { rejectMilestone } from "../services/verification/reject";
import { submitReport } from "../services/verification/report";
import { listReports } from "../services/verification/reports";
import { resubmitMilestone } from "../services/verification/resubmit";
import { startVerification } from "../services/verification/start";
import { getVerification } from "../services/verification/view";

const tags = ["Verification"];
const params = idParams;
const ID = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";
const SECOND_FACTOR_NOTE =
  "Roles in MFA_REQUIRED_ROLES must have passed the second factor in this session within 12 hours: else 403 " +
  "with code `mfa_required`. The body is checked first: a request that would fail anyway says so before anyone " +
  "is asked for a code.";
const answer = json(verificationSchema, "The milestone's verification, as it now stands.");

/** A milestone action with no body, answering the verification view. */
const action = (path: string, operationId: string, summary: string) =>
  createRoute({
    method: "post",
    path,
    operationId,
    tags,
    summary,
    security: SESSION,
    request: { params },
    responses: { 200: answer, ...errors(422) },
  });

const view = createRoute({
  method: "get",
  path: "/{id}/verification",
  operationId: "getVerification",
  tags,
  summary: "The verification workspace: checklist, quorum, dispute and what the caller may do",
  security: SESSION,
  request: { params },
  responses: { 200: json(verificationSchema, "The verification state.") },
});

const startSchema = z.strictObject({ round: seenStateFields.round });

const start = createRoute({
  method: "post",
  path: "/{id}/start",
  operationId: "startVerification",
  tags,
  summary: "Start verifying a milestone (an assigned verifier)",
  description: "Send `round` as the verifier saw it: a milestone that has moved on since is refused with 409.",
  security: SESSION,
  request: { params, body: jsonBody(startSchema, { round: 1 }, false) },
  responses: { 200: answer, ...errors(422) },
});

const approve = createRoute({
  method: "post",
  path: "/{id}/approve",
  operationId: "approveMilestone",
  tags,
  summary:
    "Approve (an assigned verifier, second factor); the approval that completes the release policy instructs the release, exactly once",
  description:
    "Under a policy needing several approvals each assigned verifier approves once; `share` (percent) approves " +
    "part of the open amount, with a reason. Send an `Idempotency-Key` header to make retries safe: the same key " +
    "answers the first result again, with `Idempotent-Replayed: true`. Send `round` and `policyVersion` as the " +
    `verifier saw them: a milestone that has moved on since is refused with 409 \`stale_round\`. ${SECOND_FACTOR_NOTE}`,
  security: SESSION,
  request: {
    params,
    headers: idempotencyHeaders,
    body: jsonBody(approveSchema, { comments: "All checklist items verified on site." }, false),
  },
  responses: { 200: answer, ...errors(422) },
});

const reject = createRoute({
  method: "post",
  path: "/{id}/reject",
  operationId: "rejectMilestone",
  tags,
  summary: "Reject with a reason (an assigned verifier, second factor)",
  description:
    "`Idempotency-Key`, `round` and `policyVersion` as for approve: a replay answers the first result, a stale " +
    `round is refused with 409 \`stale_round\`. ${SECOND_FACTOR_NOTE}`,
  security: SESSION,
  request: {
    params,
    headers: idempotencyHeaders,
    body: jsonBody(rejectSchema, { comments: "The inspection certificate is missing." }),
  },
  responses: { 200: answer, ...errors(422) },
});

const countersign = createRoute({
  method: "post",
  path: "/{id}/countersign",
  operationId: "countersignMilestone",
  tags,
  summary: "Countersign a release the verifiers agreed on (an investor member, when the policy asks for it)",
  description: SECOND_FACTOR_NOTE,
  security: SESSION,
  request: {
    params,
    body: jsonBody(countersignSchema, { comments: "Countersigned for the investment committee." }, false),
  },
  responses: { 200: answer, ...errors(422) },
});

const dispute = createRoute({
  method: "post",
  path: "/{id}/dispute",
  operationId: "disputeRejection",
  tags,
  summary: "Dispute a rejection with a statement (the project owner)",
  security: SESSION,
  request: {
    params,
    body: jsonBody(disputeSchema, { statement: "The certificate was uploaded on 12 December; see evidence." }),
  },
  responses: { 200: answer, ...errors(422) },
});

const assign = createRoute({
  method: "post",
  path: "/{id}/dispute/assign",
  operationId: "assignDispute",
  tags,
  summary: "Assign an open dispute to a different verifier (admins, second factor)",
  description: SECOND_FACTOR_NOTE,
  security: SESSION,
  request: { params, body: jsonBody(assignDisputeSchema, { verifierId: ID }) },
  responses: { 200: answer, ...errors(422) },
});

const resubmit = action(
  "/{id}/resubmit",
  "resubmitMilestone",
  "Resubmit a rejected milestone for verification (its owner)",
);
const delay = action("/{id}/delay", "markMilestoneDelayed", "Mark a milestone delayed (its owner)");

const checklist = createRoute({
  method: "put",
  path: "/{id}/checklist",
  operationId: "updateChecklist",
  tags,
  summary: "Save the verification checklist, with a note per item",
  description: "`notes` replaces the items' notes when sent; `round` as for approve; `Idempotency-Key` replays.",
  security: SESSION,
  request: {
    params,
    headers: idempotencyHeaders,
    body: jsonBody(checklistUpdateSchema, {
      documentation: true,
      compliance: true,
      quality: false,
      timeline: false,
      budget: false,
      risk: false,
    }),
  },
  responses: { 200: answer, ...errors(422) },
});

const report = createRoute({
  method: "post",
  path: "/{id}/report",
  operationId: "submitReport",
  tags,
  summary: "Submit the verification report of the current decision (submitting again edits it)",
  security: SESSION,
  request: { params, body: jsonBody(reportSchema, { comments: "Site visit on 12 December." }, false) },
  responses: {
    201: json(verificationReportSchema, "The report, submitted."),
    200: json(verificationReportSchema, "The report, edited."),
    ...errors(422),
  },
});

const history = createRoute({
  method: "get",
  path: "/{id}/history",
  operationId: "getMilestoneHistory",
  tags: ["Milestones"],
  summary: "The milestone's audit trail",
  security: SESSION,
  request: { params },
  responses: { 200: json(itemsOf(auditEventSchema), "Its events, oldest first.") },
});

const milestoneId = (c: Context<AppEnv>) => param(c, "id", "Milestone");

/** Mounted on /milestones beside the milestone CRUD routes. */
export const verificationRoutes = new ApiRoutes()
  .handle(view, async (c) => c.json(await getVerification(serviceContext(c), milestoneId(c)), 200))
  .handle(start, async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    return c.json(await startVerification(ctx, id, await optionalJson(c, startSchema)), 200);
  })
  // On the actions behind the second factor the body is checked first: a request that would fail anyway
  // (a partial approval without its reason) says so before anyone is asked for a code.
  .handle(approve, async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const key = idempotencyKey(c);
    const input = await optionalJson(c, approveSchema);
    await requireSecondFactor(c);
    const result = await approveMilestone(ctx, id, { ...input, idempotencyKey: key });
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.body, 200);
  })
  .handle(reject, async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const key = idempotencyKey(c);
    const input = await body(c, reject);
    await requireSecondFactor(c);
    const result = await rejectMilestone(ctx, id, { ...input, idempotencyKey: key });
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.body, 200);
  })
  .handle(countersign, async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const input = await optionalJson(c, countersignSchema);
    await requireSecondFactor(c);
    return c.json(await countersignMilestone(ctx, id, input), 200);
  })
  .handle(dispute, async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    return c.json(await openDispute(ctx, id, await body(c, dispute)), 200);
  })
  .handle(assign, async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const input = await body(c, assign);
    await requireSecondFactor(c);
    return c.json(await assignDispute(ctx, id, input), 200);
  })
  .handle(resubmit, async (c) => c.json(await resubmitMilestone(serviceContext(c), milestoneId(c)), 200))
  .handle(delay, async (c) => c.json(await delayMilestone(serviceContext(c), milestoneId(c)), 200))
  .handle(checklist, async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const key = idempotencyKey(c);
    const result = await updateChecklist(ctx, id, { ...(await body(c, checklist)), idempotencyKey: key });
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.body, 200);
  })
  .handle(report, async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const input = await optionalJson(c, reportSchema);
    const { report, created } = await submitReport(ctx, id, input);
    return created ? c.json(report, 201) : c.json(report, 200);
  })
  .handle(history, async (c) => c.json({ items: await milestoneHistory(serviceContext(c), milestoneId(c)) }, 200));

const queue = createRoute({
  method: "get",
  path: "/",
  operationId: "listVerificationQueue",
  tags,
  summary: "The signed-in verifier's queue",
  security: SESSION,
  responses: { 200: json(verifierQueueSchema, "Pending, completed and delayed verifications, with counts.") },
});

const completed = createRoute({
  method: "get",
  path: "/completed",
  operationId: "listCompletedVerifications",
  tags,
  summary: "Every decision of the signed-in verifier, newest first, a page at a time",
  security: SESSION,
  request: { query: completedQuery },
  responses: { 200: json(verifierQueuePageSchema, "A page of decided milestones, with the total.") },
});

const pending = createRoute({
  method: "get",
  path: "/pending",
  operationId: "listPendingVerifications",
  tags,
  summary:
    "What waits on the signed-in verifier, earliest due first, a page at a time; q searches title and description",
  security: SESSION,
  request: { query: verifierPendingQuerySchema },
  responses: { 200: json(verifierQueuePageSchema, "A page of pending milestones, with how many match in all.") },
});

/**
 * GET /api/verifications: the signed-in verifier's queue; /pending: what waits on them, paginated and searchable;
 * /completed: every decision they made, paginated.
 */
export const verifierQueueRoutes = new ApiRoutes()
  .handle(queue, async (c) => c.json(await verifierQueue(serviceContext(c)), 200))
  .handle(pending, async (c) => c.json(await pendingPage(serviceContext(c), query(c, pending)), 200))
  .handle(completed, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await completedVerifications({ ctx, input: query(c, completed) }), 200);
  });

const reports = createRoute({
  method: "get",
  path: "/",
  operationId: "listReports",
  tags,
  summary: "Verification reports the caller may see, newest first, a page at a time",
  security: SESSION,
  request: { query: reportListQuerySchema },
  responses: { 200: json(pageOf(verificationReportSchema), "A page of reports; `nextCursor` fetches the next.") },
});

/** GET /api/reports: submitted verification reports the caller may see. */
export const reportRoutes = new ApiRoutes().handle(reports, async (c) => {
  const ctx = serviceContext(c);
  return c.json(await listReports(ctx, query(c, reports)), 200);
});
