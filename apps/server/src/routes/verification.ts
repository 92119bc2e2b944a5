import {
  approveSchema,
  assignDisputeSchema,
  checklistUpdateSchema,
  decisionSchema,
  disputeSchema,
  rejectSchema,
  reportListQuerySchema,
  reportSchema,
  seenStateFields,
} from "@tranche/domain";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { requireUser } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import type { AppEnv, ServiceContext } from "../context";
import { AppError } from "../errors";
import { parseJson, parseQuery, parseWith, pathId } from "../lib/validate";
import { milestoneHistory } from "../services/audit/history";
import { approveMilestone } from "../services/verification/approve";
import { updateChecklist } from "../services/verification/checklist";
import { countersignMilestone } from "../services/verification/countersign";
import { delayMilestone } from "../services/verification/delay";
import { assignDispute, openDispute } from "../services/verification/dispute";
import { completedQuery, completedVerifications, verifierQueue } from "../services/verification/queue";
import { rejectMilestone } from "../services/verification/reject";
import { submitReport } from "../services/verification/report";
import { listReports } from "../services/verification/reports";
import { resubmitMilestone } from "../services/verification/resubmit";
import { startVerification } from "../services/verification/start";
import { getVerification } from "../services/verification/view";

/** The signed-in caller as a service context (401 when signed out). */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
  const actor = requireUser(c);
  const { db, env } = c.get("deps");
  return { db, env, actor };
}

const milestoneId = (c: Context<AppEnv>) => pathId(c, "id", "Milestone");

/** An optional JSON body: none at all reads as {}. */
async function optionalJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const hasBody = Number(c.req.header("content-length") ?? 0) > 0 || c.req.header("content-type");
  return hasBody ? parseJson(c, schema) : parseWith(schema, {});
}

/** The optional Idempotency-Key header: 1 to 200 visible ASCII characters. */
export function idempotencyKey(c: Context<AppEnv>): string | undefined {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw new AppError("invalid_input", "Idempotency-Key must be 1 to 200 visible ASCII characters.", {
      "Idempotency-Key": "Use 1 to 200 visible ASCII characters.",
    });
  }
  return key;
}

const startSchema = z.strictObject({ round: seenStateFields.round });

/** Mounted on /milestones beside the milestone CRUD routes. */
export const verificationRoutes = new Hono<AppEnv>()
  .get("/:id/verification", async (c) => c.json(await getVerification(serviceContext(c), milestoneId(c))))
  .post("/:id/start", async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    return c.json(await startVerification(ctx, id, await optionalJson(c, startSchema)));
  })
  // On the actions behind the second factor the body is checked first: a request that would fail anyway
  // (a partial approval without its reason) says so before anyone is asked for a code.
  .post("/:id/approve", async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const key = idempotencyKey(c);
    const input = await optionalJson(c, approveSchema);
    await requireSecondFactor(c);
    const result = await approveMilestone(ctx, id, { ...input, idempotencyKey: key });
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.body, result.status as 200);
  })
  .post("/:id/reject", async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const key = idempotencyKey(c);
    const input = await parseJson(c, rejectSchema);
    await requireSecondFactor(c);
    const result = await rejectMilestone(ctx, id, { ...input, idempotencyKey: key });
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.body, result.status as 200);
  })
  .post("/:id/countersign", async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const input = await optionalJson(c, decisionSchema);
    await requireSecondFactor(c);
    return c.json(await countersignMilestone(ctx, id, input));
  })
  .post("/:id/dispute", async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    return c.json(await openDispute(ctx, id, await parseJson(c, disputeSchema)));
  })
  .post("/:id/dispute/assign", async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const input = await parseJson(c, assignDisputeSchema);
    await requireSecondFactor(c);
    return c.json(await assignDispute(ctx, id, input));
  })
  .post("/:id/resubmit", async (c) => c.json(await resubmitMilestone(serviceContext(c), milestoneId(c))))
  .post("/:id/delay", async (c) => c.json(await delayMilestone(serviceContext(c), milestoneId(c))))
  .put("/:id/checklist", async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const key = idempotencyKey(c);
    const result = await updateChecklist(ctx, id, {
      ...(await parseJson(c, checklistUpdateSchema)),
      idempotencyKey: key,
    });
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.body, result.status as 200);
  })
  .post("/:id/report", async (c) => {
    const ctx = serviceContext(c);
    const id = milestoneId(c);
    const input = await optionalJson(c, reportSchema);
    const { report, created } = await submitReport(ctx, id, input);
    return c.json(report, created ? 201 : 200);
  })
  .get("/:id/history", async (c) => c.json({ items: await milestoneHistory(serviceContext(c), milestoneId(c)) }));

/** GET /api/verifications: the signed-in verifier's queue; /completed: every decision they made, paginated. */
export const verifierQueueRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await verifierQueue(serviceContext(c))))
  .get("/completed", async (c) => {
    const ctx = serviceContext(c);
    return c.json(await completedVerifications({ ctx, input: parseQuery(c, completedQuery) }));
  });

/** GET /api/reports: submitted verification reports the caller may see. */
export const reportRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const ctx = serviceContext(c);
  return c.json(await listReports(ctx, parseQuery(c, reportListQuerySchema)));
});
