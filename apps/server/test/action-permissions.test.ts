// Issue 15: every action follows the server's permissions: hidden (false, no reason) when the role can never do
// it; refused now with the reason (false, reason given) when the state forbids it — the same reason the server
// gives when asked anyway.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;
let otherVerifier: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [owner, investor, verifier, otherVerifier, admin] = await Promise.all([
    t.user("project_owner"),
    t.user("investor"),
    t.user("verifier"),
    t.user("verifier"),
    t.user("admin"),
  ]);
});
afterAll(() => t.close());

describe("project actions", () => {
  it("Delete Project: refused with the reason once capital is released, for the owner and admins only", async () => {
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier] });
    await makeMilestone(t, project, { status: "verified", verifier });
    const reason = "A project with verified milestones or released capital cannot be deleted.";
    for (const who of [owner, admin]) {
      const res = await t.request("GET", `/api/projects/${project.id}`, { as: who });
      expect(res.body.permissions).toMatchObject({ canDelete: false, reasons: { delete: reason } });
    }
    const seen = await t.request("GET", `/api/projects/${project.id}`, { as: investor });
    expect(seen.body.permissions).toMatchObject({ canDelete: false, reasons: {} });
    const refused = await t.request("DELETE", `/api/projects/${project.id}`, { as: owner });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(reason);
  });

  it("Delete Project: allowed with no reason while nothing is released", async () => {
    const project = await makeProject(t, { owner });
    await makeMilestone(t, project, { status: "pending" });
    const res = await t.request("GET", `/api/projects/${project.id}`, { as: owner });
    expect(res.body.permissions).toMatchObject({ canDelete: true, reasons: {} });
  });
});

describe("milestone actions", () => {
  it("edit and delete: the owner is told why a verified or in-verification milestone is locked", async () => {
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier] });
    const verified = await makeMilestone(t, project, { status: "verified", verifier });
    const checking = await makeMilestone(t, project, { status: "in_verification", verifier });
    const open = await makeMilestone(t, project, { status: "pending" });

    const v = await t.request("GET", `/api/milestones/${verified.id}`, { as: owner });
    expect(v.body.permissions).toMatchObject({
      canEdit: false,
      canDelete: false,
      canUpload: false,
      reasons: {
        edit: "A verified milestone cannot be edited or deleted.",
        delete: "A verified milestone cannot be edited or deleted.",
        upload: "Evidence cannot change once the milestone is verified.",
      },
    });
    const refused = await t.request("PATCH", `/api/milestones/${verified.id}`, { as: owner, body: { title: "New" } });
    expect(refused.status).toBe(409);

    const c = await t.request("GET", `/api/milestones/${checking.id}`, { as: owner });
    expect(c.body.permissions.reasons.edit).toBe("A milestone in verification cannot be edited or deleted.");

    const o = await t.request("GET", `/api/milestones/${open.id}`, { as: owner });
    expect(o.body.permissions).toMatchObject({ canEdit: true, canDelete: true, reasons: {} });

    // The investor can never edit: no buttons, so no reasons either.
    const i = await t.request("GET", `/api/milestones/${verified.id}`, { as: investor });
    expect(i.body.permissions).toMatchObject({ canEdit: false, canDelete: false, canUpload: false, reasons: {} });
  });

  it("approve and reject: a second verifier is told the verification is another's", async () => {
    const project = await makeProject(t, { owner, verifiers: [verifier, otherVerifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const mine = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: verifier });
    expect(mine.body.permissions).toMatchObject({ canDecide: true, reasons: {} });
    const theirs = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: otherVerifier });
    expect(theirs.body.permissions).toMatchObject({
      canDecide: false,
      reasons: { decide: "Another verifier started this verification; only they can approve or reject it." },
    });
    const refused = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: otherVerifier });
    expect(refused.status).toBe(403);
    const owners = await t.request("GET", `/api/milestones/${milestone.id}/verification`, { as: owner });
    expect(owners.body.permissions).toMatchObject({ canDecide: false, canStart: false, reasons: {} });
  });
});
