import {
  type ApiScope,
  cancelReleaseSchema,
  failReleaseSchema,
  type Role,
  releaseListQuerySchema,
  settleReleaseSchema,
} from "@tranche/domain";
import { type Context, Hono } from "hono";
import { requireCaller } from "../auth/api-tokens";
import { requireSecondFactor } from "../auth/require-second-factor";
import type { AppEnv, CallerContext } from "../context";
import { csvFilename, csvResponse } from "../lib/csv";
import { parseJson, parseQuery, pathId } from "../lib/validate";
import { cancelRelease } from "../services/releases/cancel";
import { exportReleases, RELEASE_CSV_HEADER } from "../services/releases/export";
import { failRelease } from "../services/releases/fail";
import { getRelease, listReleases } from "../services/releases/list";
import { reinstructRelease } from "../services/releases/reinstruct";
import { settleRelease } from "../services/releases/settle";

export const releaseListQuery = releaseListQuerySchema;

/** The caller as a service context: the route's scope for API tokens, its roles for people (null: any). */
function callerContext(c: Context<AppEnv>, scope: ApiScope | null, roles?: Role[]): CallerContext {
  const { db, env } = c.get("deps");
  return { db, env, caller: requireCaller(c, scope, roles) };
}

const releaseId = (c: Context<AppEnv>) => pathId(c, "id", "Release");

/** /api/releases: read by members and tokens; settled or failed by the custodian; re-instructed or cancelled by admins. */
export const releaseRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const ctx = callerContext(c, "releases:read");
    return c.json(await listReleases(ctx, parseQuery(c, releaseListQuery)));
  })
  /** GET /api/releases/export.csv: the list, with its filters, as a streamed CSV download. */
  .get("/export.csv", (c) => {
    const ctx = callerContext(c, "releases:read");
    const { status, projectId } = parseQuery(c, releaseListQuery);
    return csvResponse(c, csvFilename("releases"), RELEASE_CSV_HEADER, exportReleases(ctx, { status, projectId }));
  })
  .get("/:id", async (c) => {
    const ctx = callerContext(c, "releases:read");
    return c.json(await getRelease(ctx, releaseId(c)));
  })
  .post("/:id/settle", async (c) => {
    const ctx = callerContext(c, "releases:write", ["admin"]);
    const id = releaseId(c);
    const result = await settleRelease(ctx, id, await parseJson(c, settleReleaseSchema));
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.release);
  })
  .post("/:id/fail", async (c) => {
    const ctx = callerContext(c, "releases:write", ["admin"]);
    const id = releaseId(c);
    return c.json(await failRelease(ctx, id, await parseJson(c, failReleaseSchema)));
  })
  .post("/:id/reinstruct", async (c) => {
    const ctx = callerContext(c, null, ["admin"]);
    await requireSecondFactor(c);
    return c.json(await reinstructRelease(ctx, releaseId(c)));
  })
  .post("/:id/cancel", async (c) => {
    const ctx = callerContext(c, null, ["admin"]);
    await requireSecondFactor(c);
    const id = releaseId(c);
    return c.json(await cancelRelease(ctx, id, await parseJson(c, cancelReleaseSchema)));
  });
