// Holes found by the robustness sweep and the security review, each pinned by a test that failed before
// its fix: input that used to reach the database as a 500, and permission or header mistakes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { milestones } from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let dataDir: string;
let t: TestApp;
let owner: TestUser;
let investor: TestUser;
let verifier: TestUser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-security-"));
  t = await createTestApp({ DATA_DIR: dataDir });
  [owner, investor, verifier] = await Promise.all([
    t.user("project_owner"),
    t.user("investor"),
    t.user("verifier"),
  ]);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("text with a NUL character", () => {
  it("is refused with 400 naming the field, in bodies and queries, and changes nothing", async () => {
    const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });

    const created = await t.request("POST", "/api/projects", {
      as: owner,
      body: { name: "a\u0000b", description: "D", location: "L", totalCapital: 10 },
    });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: "invalid_input", details: { name: expect.any(String) } });

    const rejected = await t.request("POST", `/api/milestones/${milestone.id}/reject`, {
      as: verifier,
      body: { comments: "bad\u0000" },
    });
    expect(rejected.status).toBe(400);
    expect(rejected.body.error.details).toHaveProperty("comments");
    const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, milestone.id));
    expect(row.status).toBe("in_verification");

    const search = await t.request("GET", "/api/projects?q=%00", { as: investor });
    expect(search.status).toBe(400);
    expect(search.body.error.details).toHaveProperty("q");
  });
});
