import { createRoute } from "@hono/zod-openapi";
import {
  createMilestoneSchema,
  createProjectSchema,
  leadInvestorSchema,
  memberSchema,
  milestoneDetailSchema,
  milestoneSchema,
  PROJECT_STATUSES,
  pageOf,
  projectCountsQuerySchema,
  projectDetailSchema,
  projectExportQuerySchema,
  projectListQuerySchema,
  projectSummarySchema,
  releasePolicyDtoSchema,
  releasePolicySchema,
  removeMemberQuerySchema,
  statusCountsOf,
  transferOwnershipSchema,
  updateProjectSchema,
} from "@tranche/domain";
import { z } from "zod";
import { callerContext, serviceContext } from "../auth/middleware";
import { requireSecondFactor } from "../auth/require-second-factor";
import { csvFilename, csvResponse } from "../lib/csv";
import {
  ApiRoutes,
  body,
  csvFile,
  empty,
  errors,
  idParams,
  json,
  jsonBody,
  param,
  query,
  SESSION,
  sessionOrToken,
} from "../openapi/routes";
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

const tags = ["Projects"];
const ID = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";
const params = idParams;
const SECOND_FACTOR_NOTE =
  "Roles in MFA_REQUIRED_ROLES must have passed the second factor in this session within 12 hours: else 403 " +
  "with code `mfa_required`.";

const list = createRoute({
  method: "get",
  path: "/",
  operationId: "listProjects",
  tags,
  summary: "Projects the caller may see: filtered, searched (trigram), sorted, a page at a time",
  security: sessionOrToken("projects:read"),
  request: { query: projectListQuerySchema },
  responses: {
    200: json(pageOf(projectSummarySchema), "A page of projects; `nextCursor` fetches the next (null on the last)."),
  },
});

const create = createRoute({
  method: "post",
  path: "/",
  operationId: "createProject",
  tags,
  summary: "Create a project (project owners, admins)",
  security: SESSION,
  request: {
    body: jsonBody(createProjectSchema, {
      name: "Mojave Solar Farm Phase II",
      description: "A 120 MW photovoltaic plant with storage.",
      location: "Mojave Desert, California",
      totalCapital: 12500000,
    }),
  },
  responses: { 201: json(projectDetailSchema, "The new project.") },
});

const counts = createRoute({
  method: "get",
  path: "/counts",
  operationId: "countProjects",
  tags,
  summary: "How many projects the caller may see match the search, in all and per status (the list's tabs)",
  security: sessionOrToken("projects:read"),
  request: { query: projectCountsQuerySchema },
  responses: { 200: json(statusCountsOf(PROJECT_STATUSES), "The counts.") },
});

const exportCsv = createRoute({
  method: "get",
  path: "/export.csv",
  operationId: "exportProjects",
  tags,
  summary: "The project list with the same filters, as a streamed CSV download (UTF-8, header row)",
  security: SESSION,
  request: { query: projectExportQuerySchema },
  responses: { 200: csvFile() },
});

const get = createRoute({
  method: "get",
  path: "/{id}",
  operationId: "getProject",
  tags,
  summary: "A project with its figures, team and the caller's permissions",
  security: sessionOrToken("projects:read"),
  request: { params },
  responses: { 200: json(projectDetailSchema, "The project.") },
});

const update = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateProject",
  tags,
  summary: "Edit a project (its owner, admins)",
  security: SESSION,
  request: { params, body: jsonBody(updateProjectSchema, { name: "Mojave Solar Farm Phase II (North)" }) },
  responses: { 200: json(projectDetailSchema, "The updated project."), ...errors(422) },
});

const remove = createRoute({
  method: "delete",
  path: "/{id}",
  operationId: "deleteProject",
  tags,
  summary: "Delete a project with no released capital (its owner, admins)",
  security: SESSION,
  request: { params },
  responses: { 204: empty("Deleted.") },
});

const addMemberRoute = createRoute({
  method: "post",
  path: "/{id}/members",
  operationId: "addProjectMember",
  tags,
  summary: "Add an investor or verifier to the project team (admins, second factor)",
  description: SECOND_FACTOR_NOTE,
  security: SESSION,
  request: { params, body: jsonBody(memberSchema, { userId: ID, role: "verifier" }) },
  responses: { 201: json(projectDetailSchema, "The project, its team showing the new member."), ...errors(422) },
});

const removeMemberRoute = createRoute({
  method: "delete",
  path: "/{id}/members/{userId}",
  operationId: "removeProjectMember",
  tags,
  summary: "Remove a team member (admins, second factor)",
  description: SECOND_FACTOR_NOTE,
  security: SESSION,
  request: { params: z.object({ id: z.uuid(), userId: z.uuid() }), query: removeMemberQuerySchema },
  responses: { 204: empty("Removed."), ...errors(422) },
});

const leadInvestor = createRoute({
  method: "put",
  path: "/{id}/lead-investor",
  operationId: "setLeadInvestor",
  tags,
  summary: "Name the project's lead investor, who may set its release policy (admins, second factor)",
  description: SECOND_FACTOR_NOTE,
  security: SESSION,
  request: { params, body: jsonBody(leadInvestorSchema, { userId: ID }) },
  responses: { 200: json(projectDetailSchema, "The project, its team showing the lead investor."), ...errors(422) },
});

const getPolicy = createRoute({
  method: "get",
  path: "/{id}/release-policy",
  operationId: "getReleasePolicy",
  tags,
  summary: "The release policy in force, in one sentence, with every earlier version",
  security: SESSION,
  request: { params },
  responses: { 200: json(releasePolicyDtoSchema, "The release policy and its versions.") },
});

const setPolicy = createRoute({
  method: "put",
  path: "/{id}/release-policy",
  operationId: "setReleasePolicy",
  tags,
  summary: "Set the release policy: a new version (admins and the project's lead investor, second factor)",
  description:
    "Approvals needed (1 to 5), more for milestones of at least an amount, verifiers from different organizations, " +
    `and an investor countersignature above an amount. Each release records the version that applied. ${SECOND_FACTOR_NOTE}`,
  security: SESSION,
  request: {
    params,
    body: jsonBody(releasePolicySchema, {
      requiredApprovals: 2,
      thresholds: [{ minAmount: 1_000_000, approvals: 3 }],
      distinctOrganizations: true,
      cosignAbove: 1_000_000,
    }),
  },
  responses: { 200: json(releasePolicyDtoSchema, "The release policy now in force."), ...errors(422) },
});

const owner = createRoute({
  method: "post",
  path: "/{id}/owner",
  operationId: "transferProjectOwnership",
  tags,
  summary: "Transfer the project to another project owner (admins, second factor)",
  description: SECOND_FACTOR_NOTE,
  security: SESSION,
  request: { params, body: jsonBody(transferOwnershipSchema, { userId: ID }) },
  responses: {
    200: json(projectDetailSchema, "The project with its new owner; the old and new owners are notified."),
    ...errors(422),
  },
});

const listMilestones = createRoute({
  method: "get",
  path: "/{id}/milestones",
  operationId: "listProjectMilestones",
  tags: ["Milestones"],
  summary: "The project's milestones in schedule order",
  security: SESSION,
  request: { params },
  responses: { 200: json(z.array(milestoneSchema), "The milestones.") },
});

const addMilestone = createRoute({
  method: "post",
  path: "/{id}/milestones",
  operationId: "createMilestone",
  tags: ["Milestones"],
  summary: "Add a milestone (the project's owner, admins)",
  security: SESSION,
  request: {
    params,
    body: jsonBody(createMilestoneSchema, {
      title: "Foundations poured",
      description: "All pile foundations poured and inspected.",
      dueDate: "2026-12-15",
      capitalAmount: 2500000,
    }),
  },
  responses: { 201: json(milestoneDetailSchema, "The new milestone."), ...errors(422) },
});

const projectId = (c: Parameters<typeof param>[0]) => param(c, "id", "Project");

export const projectRoutes = new ApiRoutes()
  .handle(list, async (c) => {
    const ctx = callerContext(c, "projects:read");
    return c.json(await listProjects(ctx, query(c, list)), 200);
  })
  .handle(create, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await createProject(ctx, await body(c, create)), 201);
  })
  .handle(counts, async (c) => {
    const ctx = callerContext(c, "projects:read");
    return c.json(await countProjects(ctx, query(c, counts)), 200);
  })
  .handleRaw(exportCsv, (c) => {
    const ctx = serviceContext(c);
    const input = query(c, exportCsv);
    return csvResponse(c, csvFilename("projects"), PROJECT_CSV_HEADER, exportProjects(ctx, input));
  })
  .handle(get, async (c) => {
    const ctx = callerContext(c, "projects:read");
    return c.json(await getProject(ctx, projectId(c)), 200);
  })
  .handle(update, async (c) => {
    const ctx = serviceContext(c);
    const id = projectId(c);
    return c.json(await updateProject(ctx, id, await body(c, update)), 200);
  })
  .handleRaw(remove, async (c) => {
    const ctx = serviceContext(c);
    await deleteProject(ctx, projectId(c));
    return c.body(null, 204);
  })
  .handle(addMemberRoute, async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = projectId(c);
    return c.json(await addMember(ctx, id, await body(c, addMemberRoute)), 201);
  })
  .handleRaw(removeMemberRoute, async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = projectId(c);
    const userId = param(c, "userId", "Member");
    await removeMember(ctx, id, userId, query(c, removeMemberRoute).role);
    return c.body(null, 204);
  })
  .handle(leadInvestor, async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = projectId(c);
    return c.json(await setLeadInvestor(ctx, id, (await body(c, leadInvestor)).userId), 200);
  })
  .handle(getPolicy, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await getReleasePolicy(ctx, projectId(c)), 200);
  })
  .handle(setPolicy, async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = projectId(c);
    return c.json(await setReleasePolicy(ctx, id, await body(c, setPolicy)), 200);
  })
  .handle(owner, async (c) => {
    const ctx = serviceContext(c);
    await requireSecondFactor(c);
    const id = projectId(c);
    return c.json(await transferOwnership(ctx, id, await body(c, owner)), 200);
  })
  .handle(listMilestones, async (c) => {
    const ctx = serviceContext(c);
    return c.json(await listProjectMilestones(ctx, projectId(c)), 200);
  })
  .handle(addMilestone, async (c) => {
    const ctx = serviceContext(c);
    const id = projectId(c);
    return c.json(await createMilestone(ctx, id, await body(c, addMilestone)), 201);
  });
