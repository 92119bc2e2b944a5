// The permissions table (docs/domain.md "People and roles"): every role and a signed-out caller against every
// project and milestone call, on a project the caller belongs to and on one they do not. Refusals must leave the data
// untouched.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { daysFromNow, makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
const actors = {} as Record<"investor" | "project_owner" | "verifier" | "admin", TestUser>;
let otherOwner: TestUser;
let candidate: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  actors.investor = await t.user("investor");
  actors.project_owner = await t.user("project_owner");
  actors.verifier = await t.user("verifier");
  actors.admin = await t.user("admin");
  otherOwner = await t.user("project_owner");
  candidate = await t.user("verifier");
});
afterAll(() => t.close());

type Role = keyof typeof actors;
type Caller = Role | "signed_out";

/** A fresh project (with a pending milestone and a removable investor) for one case. */
async function fixture(role: Caller, member: boolean) {
  const actor = role === "signed_out" ? null : actors[role];
  const extraInvestor = await t.user("investor");
  const ownerIsActor = member && (role === "project_owner" || role === "admin");
  const project = await makeProject(t, {
    owner: ownerIsActor && actor ? actor : otherOwner,
    investors: [extraInvestor, ...(member && role === "investor" ? [actors.investor] : [])],
    verifiers: member && role === "verifier" ? [actors.verifier] : [],
    totalCapital: 1_000_000,
  });
  const milestone = await makeMilestone(t, project, { capitalAmount: 100_000 });
  return { actor, project, milestone, extraInvestor };
}

async function snapshot(): Promise<string> {
  const q = (text: string) => queryRows(t.deps.db, sql.raw(text));
  return JSON.stringify([
    await q("select * from projects order by id"),
    await q("select project_id, user_id, role from project_members order by project_id, user_id, role"),
    await q("select * from milestones order by id"),
    await q("select count(*)::int as n from audit_events"),
    await q("select count(*)::int as n from notifications"),
    await q("select count(*)::int as n from disbursements"),
  ]);
}

type Fixture = Awaited<ReturnType<typeof fixture>>;
interface Call {
  name: string;
  request: (f: Fixture) => { method: string; path: string; body?: unknown };
}

const validMilestone = () => ({
  title: "Added by the matrix",
  description: "A milestone created by the authorization matrix.",
  dueDate: daysFromNow(20),
  capitalAmount: 1_000,
});

const projectCalls: Call[] = [
  { name: "GET project", request: (f) => ({ method: "GET", path: `/api/projects/${f.project.id}` }) },
  {
    name: "PATCH project",
    request: (f) => ({ method: "PATCH", path: `/api/projects/${f.project.id}`, body: { name: "Renamed" } }),
  },
  { name: "DELETE project", request: (f) => ({ method: "DELETE", path: `/api/projects/${f.project.id}` }) },
  {
    name: "POST member",
    request: (f) => ({
      method: "POST",
      path: `/api/projects/${f.project.id}/members`,
      body: { userId: candidate.id, role: "verifier" },
    }),
  },
  {
    name: "DELETE member",
    request: (f) => ({
      method: "DELETE",
      path: `/api/projects/${f.project.id}/members/${f.extraInvestor.id}?role=investor`,
    }),
  },
  {
    name: "GET project milestones",
    request: (f) => ({ method: "GET", path: `/api/projects/${f.project.id}/milestones` }),
  },
  {
    name: "POST milestone",
    request: (f) => ({ method: "POST", path: `/api/projects/${f.project.id}/milestones`, body: validMilestone() }),
  },
  { name: "GET milestone", request: (f) => ({ method: "GET", path: `/api/milestones/${f.milestone.id}` }) },
  {
    name: "PATCH milestone",
    request: (f) => ({ method: "PATCH", path: `/api/milestones/${f.milestone.id}`, body: { title: "Renamed" } }),
  },
  { name: "DELETE milestone", request: (f) => ({ method: "DELETE", path: `/api/milestones/${f.milestone.id}` }) },
];

// Investors and verifiers only read.
const readOnly: Record<string, number> = {
  "GET project": 200,
  "PATCH project": 403,
  "DELETE project": 403,
  "POST member": 403,
  "DELETE member": 403,
  "GET project milestones": 200,
  "POST milestone": 403,
  "GET milestone": 200,
  "PATCH milestone": 403,
  "DELETE milestone": 403,
};

// Expected status on a project the caller belongs to; on any other project non-admins get 404.
const onMemberProject: Record<Role, Record<string, number>> = {
  investor: readOnly,
  project_owner: {
    "GET project": 200,
    "PATCH project": 200,
    "DELETE project": 204,
    "POST member": 403,
    "DELETE member": 403,
    "GET project milestones": 200,
    "POST milestone": 201,
    "GET milestone": 200,
    "PATCH milestone": 200,
    "DELETE milestone": 204,
  },
  verifier: readOnly,
  admin: {
    "GET project": 200,
    "PATCH project": 200,
    "DELETE project": 204,
    "POST member": 201,
    "DELETE member": 204,
    "GET project milestones": 200,
    "POST milestone": 201,
    "GET milestone": 200,
    "PATCH milestone": 200,
    "DELETE milestone": 204,
  },
};

function expected(role: Caller, member: boolean, call: string): number {
  if (role === "signed_out") return 401;
  if (!member && role !== "admin") return 404;
  return onMemberProject[role][call];
}

const callers: Caller[] = ["investor", "project_owner", "verifier", "admin", "signed_out"];

describe.each(callers)("as %s", (role) => {
  for (const member of [true, false]) {
    if (role === "signed_out" && member) continue;
    const where = member ? "on a project they belong to" : "on a project they do not belong to";
    it.each(projectCalls.map((call) => [call.name, call] as const))(`%s ${where}`, async (name, call) => {
      const f = await fixture(role, member);
      const { method, path, body } = call.request(f);
      const status = expected(role, member, name);
      const before = await snapshot();
      const res = await t.request(method, path, { body, as: f.actor });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (status >= 400) {
        expect(res.body.error.code).toBe(
          { 401: "unauthenticated", 403: "forbidden", 404: "not_found" }[status as 401 | 403 | 404],
        );
        expect(await snapshot()).toBe(before);
      } else if (method !== "GET") {
        expect(await snapshot()).not.toBe(before);
      }
    });
  }
});

describe("lists and creation", () => {
  it.each(callers)("GET /api/projects and /api/milestones as %s list only visible items", async (role) => {
    const mine = await fixture(role, true);
    const other = await fixture(role, false);
    const projects = await t.request("GET", "/api/projects?limit=100", { as: mine.actor });
    const milestones = await t.request("GET", "/api/milestones?limit=100", { as: mine.actor });
    if (role === "signed_out") {
      expect(projects.status).toBe(401);
      expect(milestones.status).toBe(401);
      return;
    }
    expect(projects.status).toBe(200);
    expect(milestones.status).toBe(200);
    const projectIds = projects.body.items.map((p: { id: string }) => p.id);
    const milestoneIds = milestones.body.items.map((m: { id: string }) => m.id);
    expect(projectIds).toContain(mine.project.id);
    expect(milestoneIds).toContain(mine.milestone.id);
    if (role === "admin") {
      expect(projectIds).toContain(other.project.id);
      expect(milestoneIds).toContain(other.milestone.id);
    } else {
      expect(projectIds).not.toContain(other.project.id);
      expect(milestoneIds).not.toContain(other.milestone.id);
    }
  });

  const createStatus: Record<Caller, number> = {
    investor: 403,
    project_owner: 201,
    verifier: 403,
    admin: 201,
    signed_out: 401,
  };
  it.each(callers)("POST /api/projects as %s", async (role) => {
    const actor = role === "signed_out" ? null : actors[role];
    const before = await snapshot();
    const res = await t.request("POST", "/api/projects", {
      as: actor,
      body: { name: "Matrix project", description: "Made by the matrix.", totalCapital: 50_000, location: "Oslo" },
    });
    expect(res.status).toBe(createStatus[role]);
    if (res.status >= 400) expect(await snapshot()).toBe(before);
    else expect(res.body.owner.id).toBe(actor?.id);
  });

  it.each(callers)("GET /api/verifiers as %s", async (role) => {
    const actor = role === "signed_out" ? null : actors[role];
    const res = await t.request("GET", "/api/verifiers", { as: actor });
    // Anyone may sign up as an owner: the directory, with its email addresses, is for investors and admins.
    const status = { signed_out: 401, project_owner: 403, verifier: 403, investor: 200, admin: 200 }[role];
    expect(res.status).toBe(status);
  });

  it("answers 404 for ids that are not uuids or do not exist", async () => {
    for (const path of [
      "/api/projects/not-a-uuid",
      "/api/projects/00000000-0000-4000-8000-000000000000",
      "/api/milestones/123",
      "/api/milestones/00000000-0000-4000-8000-000000000000",
    ]) {
      const res = await t.request("GET", path, { as: actors.admin });
      expect(res.status).toBe(404);
    }
  });
});
