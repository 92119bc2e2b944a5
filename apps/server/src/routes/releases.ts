import { createRoute } from "@hono/zod-openapi";
import {
  cancelReleaseSchema,
  failReleaseSchema,
  pageOf,
  releaseExportQuerySchema,
  releaseListQuerySchema,
  releaseSchema,
  settleReleaseSchema,
} from "@tranche/domain";
import type { Context } from "hono";
import { callerContext } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import type { AppEnv } from "../context";
import { csvFilename, csvResponse } from "../lib/csv";
import {
  ApiRoutes,
  body,
  csvFile,
  errors,
  idParams,
  json,
  jsonBody,
  param,
  query,
  SESSION,
  sessionOrToken,
  tokenOnly,
} from "../openapi/routes";
import { cancelRelease } from "../services/releases/cancel";
import { exportReleases, RELEASE_CSV_HEADER } from "../services/releases/export";
import { failRelease } from "../services/releases/fail";
import { getRelease, listReleases } from "../services/releases/list";
import { reinstructRelease } from "../services/releases/reinstruct";
import { settleRelease } from "../services/releases/settle";

export const releaseListQuery = releaseListQuerySchema;

const tags = ["Releases"];
const params = idParams;

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listReleases",
  tags,
  summary: "Releases the caller may see, newest first (cursor pagination)",
  security: sessionOrToken("releases:read"),
  request: { query: releaseListQuery },
  responses: { 200: json(pageOf(releaseSchema), "A page of releases; `nextCursor` fetches the next.") },
});

const exportCsv = createRoute({
  method: "get",
  path: "/export.csv",
  operationId: "exportReleases",
  tags,
  summary: "The release list with the same filters, as a streamed CSV download (UTF-8, header row)",
  security: sessionOrToken("releases:read"),
  request: { query: releaseExportQuerySchema },
  responses: { 200: csvFile() },
});

const get = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getRelease",
  tags,
  summary: "One release with its instruction, settlement, failure or cancellation",
  security: sessionOrToken("releases:read"),
  request: { params },
  responses: { 200: json(releaseSchema, "The release.") },
});

const settle = createRoute({
  method: "post",
  path: "/{id}/settle",
  operationId: "settleRelease",
  tags,
  summary: "Report the release paid (the custodian's API token)",
  description:
    "The same reference again answers 200 with `Idempotent-Replayed: true`; another reference, or a failed or " +
    "cancelled release, answers 409, as does an `instructionId` the release has since replaced (a re-instruction). " +
    "`settledAt` may not be in the future nor before the release was instructed " +
    "(clocks up to 5 minutes apart are allowed for). " +
    "A person's session is refused (403): only the custodian reports what it paid.",
  security: tokenOnly("releases:write"),
  request: {
    params,
    body: jsonBody(settleReleaseSchema, {
      instructionId: "0b9a8f1e-5c2d-4e7a-9f3b-1d2c3e4f5a6b",
      reference: "WIRE-2026-000123",
      settledAt: "2026-01-15T09:30:00Z",
    }),
  },
  responses: { 200: json(releaseSchema, "The settled release."), ...errors(422, 429) },
});

const fail = createRoute({
  method: "post",
  path: "/{id}/fail",
  operationId: "failRelease",
  tags,
  summary: "Report that the release could not be paid, with the reason (the custodian's API token)",
  description:
    "An `instructionId` the release has since replaced (a late report of an instruction re-instructed) answers 409. " +
    "A person's session is refused (403): only the custodian reports what it could not pay.",
  security: tokenOnly("releases:write"),
  request: {
    params,
    body: jsonBody(failReleaseSchema, {
      instructionId: "0b9a8f1e-5c2d-4e7a-9f3b-1d2c3e4f5a6b",
      reason: "Beneficiary account closed.",
    }),
  },
  responses: { 200: json(releaseSchema, "The failed release."), ...errors(422, 429) },
});

const reinstruct = createRoute({
  method: "post",
  path: "/{id}/reinstruct",
  operationId: "reinstructRelease",
  tags,
  summary: "Instruct a failed release again: a new instruction id on the same release (admins, second factor)",
  security: SESSION,
  request: { params },
  responses: { 200: json(releaseSchema, "The release, instructed again."), ...errors(422) },
});

const cancel = createRoute({
  method: "post",
  path: "/{id}/cancel",
  operationId: "cancelRelease",
  tags,
  summary: "Cancel a failed release with a reason; the milestone stays verified (admins, second factor)",
  security: SESSION,
  request: {
    params,
    body: jsonBody(cancelReleaseSchema, {
      reason: "Paid outside Tranche after the account change; see the board minutes.",
    }),
  },
  responses: { 200: json(releaseSchema, "The cancelled release."), ...errors(422) },
});

const releaseId = (c: Context<AppEnv>) => param(c, "id", "Release");

/** /api/releases: read by members and tokens; settled or failed by the custodian; re-instructed or cancelled by admins. */
export const releaseRoutes = new ApiRoutes()
  .handle(list, async (c) => {
    const ctx = callerContext(c, "releases:read");
    return c.json(await listReleases(ctx, query(c, list)), 200);
  })
  .handleRaw(exportCsv, (c) => {
    const ctx = callerContext(c, "releases:read");
    return csvResponse(c, csvFilename("releases"), RELEASE_CSV_HEADER, exportReleases(ctx, query(c, exportCsv)));
  })
  .handle(get, async (c) => {
    const ctx = callerContext(c, "releases:read");
    return c.json(await getRelease(ctx, releaseId(c)), 200);
  })
  .handle(settle, async (c) => {
    const ctx = callerContext(c, "releases:write");
    const id = releaseId(c);
    const result = await settleRelease(ctx, id, await body(c, settle));
    if (result.replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result.release, 200);
  })
  .handle(fail, async (c) => {
    const ctx = callerContext(c, "releases:write");
    const id = releaseId(c);
    return c.json(await failRelease(ctx, id, await body(c, fail)), 200);
  })
  .handle(reinstruct, async (c) => {
    const ctx = callerContext(c, null, ["admin"]);
    await requireSecondFactor(c);
    return c.json(await reinstructRelease(ctx, releaseId(c)), 200);
  })
  .handle(cancel, async (c) => {
    const ctx = callerContext(c, null, ["admin"]);
    await requireSecondFactor(c);
    const id = releaseId(c);
    return c.json(await cancelRelease(ctx, id, await body(c, cancel)), 200);
  });
