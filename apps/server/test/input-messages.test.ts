// Input refused with the message of the rule it breaks: an unknown field named like an Object.prototype property,
// money that is too small, not a number or too large, the audit checkpoints' page size, and the CSV exports, which
// take the lists' filters but no page (an export is the whole filtered set).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let admin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [admin, owner] = await Promise.all([t.user("admin"), t.user("project_owner")]);
});
afterAll(() => t.close());

const json = (text: string) => ({ raw: text, headers: { "content-type": "application/json" } });

describe("an unknown field named like an Object.prototype property", () => {
  it.each(["constructor", "toString", "hasOwnProperty", "__proto__"])("%s is named in the 400", async (name) => {
    const project = await makeProject(t, { owner });
    // Raw text: an object literal would make "__proto__" the prototype, not a field.
    const res = await t.request("PATCH", `/api/projects/${project.id}`, { as: admin, ...json(`{"${name}":1}`) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_input");
    expect(res.body.error.message).toBe(`${name}: Unknown field.`);
    expect(Object.entries(res.body.error.details)).toEqual([[name, "Unknown field."]]);
  });

  it("is named beside the other fields' messages", async () => {
    const project = await makeProject(t, { owner });
    const res = await t.request("PATCH", `/api/projects/${project.id}`, {
      as: admin,
      ...json('{"name":"","constructor":1}'),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ name: "Name is required.", constructor: "Unknown field." });
  });
});

describe("money", () => {
  const milestone = { title: "Foundations", description: "Concrete foundations.", dueDate: "2030-01-01" };

  it.each([
    ["0", "Capital amount must be greater than zero."],
    ["0.5", "Capital amount must be at least 1."],
    ['"100"', "Capital amount must be a number."],
    ['"abc"', "Capital amount must be a number."],
    ["1e308", "Capital amount must be at most 100,000,000,000."],
    // JSON.parse reads it as Infinity.
    ["1e309", "Capital amount must be at most 100,000,000,000."],
    ["12.345", "Capital amount may have at most two decimals."],
  ])("a milestone's capitalAmount of %s: %s", async (amount, message) => {
    const project = await makeProject(t, { owner });
    const text = JSON.stringify(milestone).replace(/}$/, `,"capitalAmount":${amount}}`);
    const res = await t.request("POST", `/api/projects/${project.id}/milestones`, { as: owner, ...json(text) });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: "invalid_input",
      message: `capitalAmount: ${message}`,
      details: { capitalAmount: message },
    });
  });

  it.each([
    [0.5, "Countersign amount must be at least 1."],
    ["100", "Countersign amount must be a number."],
    [1e308, "Countersign amount must be at most 100,000,000,000."],
  ])("a release policy's cosignAbove of %j: %s", async (cosignAbove, message) => {
    const project = await makeProject(t, { owner });
    const res = await t.request("PUT", `/api/projects/${project.id}/release-policy`, {
      as: admin,
      body: { requiredApprovals: 1, thresholds: [], distinctOrganizations: false, cosignAbove },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ cosignAbove: message });
  });
});

describe("GET /api/audit/checkpoints?limit=", () => {
  it.each([
    ["-1", "Limit must be between 1 and 100."],
    ["0", "Limit must be between 1 and 100."],
    ["101", "Limit must be between 1 and 100."],
    ["1.5", "Limit must be a whole number."],
    ["ten", "Limit must be a number."],
  ])("%s: %s, as on every list", async (limit, message) => {
    const res = await t.request("GET", `/api/audit/checkpoints?limit=${limit}`, { as: admin });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ limit: message });
  });

  it("reads a page size from 1 to 100", async () => {
    for (const limit of ["1", "100"]) {
      expect((await t.request("GET", `/api/audit/checkpoints?limit=${limit}`, { as: admin })).status).toBe(200);
    }
  });

  it("reads an event id written in digits only: 0x10 is not event 16", async () => {
    const res = await t.request("GET", "/api/audit?before=0x10", { as: admin });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ before: "before must be an event id." });
    expect((await t.request("GET", "/api/notifications?limit=1e2", { as: admin })).body.error.details).toEqual({
      limit: "Limit must be a number.",
    });
  });
});

describe("the CSV exports", () => {
  const exports = ["/api/projects/export.csv", "/api/milestones/export.csv", "/api/releases/export.csv"];

  it.each(exports)("%s refuses a page's cursor or limit as it refuses any unknown parameter", async (path) => {
    for (const [param, value] of [
      ["cursor", "garbage"],
      ["limit", "5"],
      ["nonsense", "1"],
      // The releases list has no sort; the projects and milestones exports take their list's.
      ...(path === "/api/releases/export.csv" ? [["sort", "newest"]] : []),
    ]) {
      const res = await t.request("GET", `${path}?${param}=${value}`, { as: admin });
      expect(res.status, `${path}?${param}`).toBe(400);
      expect(res.body.error.details, `${path}?${param}`).toEqual({ [param]: "Unknown field." });
    }
    expect((await t.request("GET", path, { as: admin })).status).toBe(200);
  });

  it("declare only their filters and their list's sort in the OpenAPI document", async () => {
    const { body } = await t.request("GET", "/api/openapi.json");
    const params = (path: string) =>
      (body.paths[path].get.parameters as { name: string; in: string }[])
        .filter((p) => p.in === "query")
        .map((p) => p.name);
    expect(params("/api/projects/export.csv")).toEqual(["status", "q", "sort"]);
    expect(params("/api/milestones/export.csv")).toEqual([
      "status",
      "mine",
      "assigned",
      "dueBefore",
      "projectId",
      "q",
      "sort",
    ]);
    expect(params("/api/releases/export.csv")).toEqual(["status", "projectId"]);
  });
});

describe("a sign-in password past its limit", () => {
  it("is named as too long, not as missing", async () => {
    const res = await t.request("POST", "/api/auth/sign-in", {
      body: { email: "someone@example.com", password: "x".repeat(1025) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ password: "Password must be at most 1024 characters." });
  });
});
