import {
  createMilestoneSchema,
  createProjectSchema,
  leadInvestorSchema,
  memberSchema,
  projectCountsQuerySchema,
  projectListQuerySchema,
  releasePolicySchema,
  transferOwnershipSchema,
  updateProjectSchema,
} from "@tranche/domain";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { requireCaller } from "../auth/api-tokens";
import { requireUser } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import type { AppEnv, CallerContext, ServiceContext } from "../context";
import { csvFilename, csvResponse } from "../lib/csv";
import { parseJson, parseQuery, pathId } from "../lib/validate";
import { addMember } from "../services/members/add";
import { removeMember } from "../services/members/remove";
import { setLeadInvestor } from "../services/members/set-lead";
import { createMilestone } from "../services/milestones/create";
import { listProjectMilestones } from "../services/milestones/list";
import { countProjects } from "../services/projects/counts";
import { createProject } from "../services/projects/create";
import { exportProjects, PROJECT_CSV_HEADER } from "../services/projects/export";
import { getProject } from "../services/projects/get";
import { listProjects } from "../services/projects/list";
import { deleteProject } from "../services/projects/remove";
import { transferOwnership } from "../services/projects/transfer-ownership";
import { updateProject } from "../services/projects/update";
import { getReleasePolicy } from "../services/release-policy/get";
import { setReleasePolicy } from "../services/release-policy/set";

export const removeMemberQuery = z.strictObject({
  role: z.enum(["investor", "verifier"], { error: "Role must be investor or verifier." }),
});

/** The signed-in caller as a service context (401 when signed out). */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
  const actor = requireUser(c);
  const { db, env } = c.get("deps");
  return { db, env, actor };
}

/** A signed-in person, or an API token with projects:read. */
function readerContext(c: Context<AppEnv>): CallerContext {
  const { db, env } = c.get("deps");
  return { db, env, caller: requireCaller(c, "projects:read") };
}

export const projectRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const ctx = readerContext(c);
    return c.json(await listProjects(ctx, parseQuery(c, projectListQuerySchema)));
  })
  .post("/", async (c) => {
    const ctx = serviceContext(c);
    return c.json(await createProject(ctx, await parseJson(c, createProjectSchema)), 201);
  })
  /** GET /api/projects/counts: how many projects the list's search matches, per status (its tabs). */
  .get("/counts", async (c) => {
    const ctx = readerContext(c);
    return c.json(await countProjects(ctx, parseQuery(c, projectCountsQuerySchema)));
  })
  /** GET /api/projects/export.csv: the list, with its filters, as a streamed CSV download. */
  .get("/export.csv", (c) => {
    const ctx = serviceContext(c);
    const input = parseQuery(c, projectListQuerySchema);
    return csvResponse(c, csvFilename("projects"), PROJECT_CSV_HEADER, exportProjects(ctx, input));
  })
  .get("/:id", async (c) => {
    const ctx = readerContext(c);
    return c.json(await getProject(ctx, pathId(c, "id", "Project")));
  })
  .patch("/:id", async (c) => {
    const ctx = serviceContext(c);
    const id = pathId(c, "id", "Project");
    return c.json(await updateProject(ctx, id, await parseJson(c, updateProjectSchema)));
  })
  .delete("/:id", async (c) => {
    const ctx = serviceContext(c);
    await deleteProject(ctx, pathId(c, "id", "Project"));
    return c.body(null, 204);
  })
  .post("/:id/members", async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = pathId(c, "id", "Project");
    return c.json(await addMember(ctx, id, await parseJson(c, memberSchema)), 201);
  })
  .delete("/:id/members/:userId", async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = pathId(c, "id", "Project");
    const userId = pathId(c, "userId", "Member");
    await removeMember(ctx, id, userId, parseQuery(c, removeMemberQuery).role);
    return c.body(null, 204);
  })
  .put("/:id/lead-investor", async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = pathId(c, "id", "Project");
    return c.json(await setLeadInvestor(ctx, id, (await parseJson(c, leadInvestorSchema)).userId));
  })
  .get("/:id/release-policy", async (c) =>
    c.json(await getReleasePolicy(serviceContext(c), pathId(c, "id", "Project"))),
  )
  .put("/:id/release-policy", async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = pathId(c, "id", "Project");
    return c.json(await setReleasePolicy(ctx, id, await parseJson(c, releasePolicySchema)));
  })
  .post("/:id/owner", async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = pathId(c, "id", "Project");
    return c.json(await transferOwnership(ctx, id, await parseJson(c, transferOwnershipSchema)));
  })
  .get("/:id/milestones", async (c) => {
    const ctx = serviceContext(c);
    return c.json(await listProjectMilestones(ctx, pathId(c, "id", "Project")));
  })
  .post("/:id/milestones", async (c) => {
    const ctx = serviceContext(c);
    const id = pathId(c, "id", "Project");
    return c.json(await createMilestone(ctx, id, await parseJson(c, createMilestoneSchema)), 201);
  });
