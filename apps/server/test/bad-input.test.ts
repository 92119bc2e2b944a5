// Input that used to answer 500: a body nested too deeply for the text checks' walk, and cursors whose timestamp
// the pattern admitted but PostgreSQL refused (offset +99, year 0). Each is a 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JSON_DEPTH_LIMIT, jsonDepth } from "../src/lib/validate";
import { makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.user("admin");
});
afterAll(() => t.close());

const raw = (text: string) => ({ raw: text, headers: { "content-type": "application/json" } });

describe("a JSON body nested too deeply", () => {
  it("is refused with 400 before it is parsed, even 100,000 levels deep and unauthenticated", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const res = await t.request("POST", "/api/auth/sign-in", raw(`{"email":${deep},"password":"x"}`));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/nested too deeply/),
    });

    const objects = `${'{"a":'.repeat(30_000)}1${"}".repeat(30_000)}`;
    expect((await t.request("POST", "/api/auth/sign-in", raw(objects))).status).toBe(400);
  });

  it("admits 64 levels, counts brackets inside strings as text, and refuses 65", () => {
    const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
    expect(jsonDepth(nested(JSON_DEPTH_LIMIT))).toBe(64);
    expect(jsonDepth(`{"a":"[[[[\\"[[[","b":[1]}`)).toBe(2);
    expect(jsonDepth(nested(65))).toBe(65);
  });

  it("at 64 levels reaches the schema, which answers its own 400", async () => {
    const deep = `${"[".repeat(62)}${"]".repeat(62)}`;
    const res = await t.request("POST", "/api/auth/sign-in", raw(`{"email":{"a":${deep}},"password":"x"}`));
    expect(res.status).toBe(400);
    expect(res.body.error.message).not.toMatch(/nested too deeply/);
  });
});

describe("a cursor PostgreSQL cannot cast", () => {
  const id = "7b0c3f5e-9a1d-4c2e-8f3b-2d6a1e0c9b47";
  const forged = (s: string, k: unknown) => Buffer.from(JSON.stringify({ s, k })).toString("base64url");
  const expectInvalidCursor = (res: { status: number; body: any }, what: string) => {
    expect(res.status, what).toBe(400);
    expect(res.body.error, what).toEqual({
      code: "invalid_input",
      message: "Cursor is not valid.",
      details: { cursor: "Cursor is not valid." },
    });
  };

  it("keyset: an offset past ±14 hours, year 0, a non-string key, a bad id → 400 Cursor is not valid.", async () => {
    await makeProject(t, { owner: await t.user("project_owner") });
    const bad = [
      forged("newest", ["2026-05-01 10:00:00+99", id]),
      forged("newest", ["2026-05-01 10:00:00+10:75", id]),
      forged("newest", ["0000-05-01 10:00:00+00", id]),
      forged("newest", ["2026-05-01 24:00:00+00", id]),
      forged("newest", [1_777_000_000, id]),
      forged("newest", ["2026-05-01 10:00:00+00", "not-a-uuid"]),
      forged("next_due", ["0000-01-01", id]),
      forged("name", ["\ud800", id]),
      forged("newest", { 0: "2026-05-01 10:00:00+00", 1: id }),
      Buffer.from("[[[[").toString("base64url"),
    ];
    for (const cursor of bad) {
      const sort = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8").replace(/^\[+$/, "{}")).s ?? "newest";
      const res = await t.request("GET", `/api/projects?sort=${sort}&cursor=${cursor}`, { as: admin });
      expectInvalidCursor(res, Buffer.from(cursor, "base64url").toString("utf8"));
    }
    const real = forged("newest", ["2026-05-01 10:00:00.123456+05:30", id]);
    expect((await t.request("GET", `/api/projects?sort=newest&cursor=${real}`, { as: admin })).status).toBe(200);
  });

  it("releases and inbound requests: year 0, a bad day or an old-style cursor → 400; a real instant is read", async () => {
    for (const path of ["/api/releases", "/api/public-requests"]) {
      for (const at of ["0000-01-01 00:00:00+00", "2024-02-30 10:00:00+00", "2024-01-01 25:00:00+00"]) {
        expectInvalidCursor(await t.request("GET", `${path}?cursor=${forged("newest", [at, id])}`, { as: admin }), at);
      }
      expectInvalidCursor(await t.request("GET", `${path}?cursor=${forged("name", ["a", id])}`, { as: admin }), path);
      const oldForm = `2024-01-01T10:00:00.000000Z_${id}`;
      expectInvalidCursor(await t.request("GET", `${path}?cursor=${oldForm}`, { as: admin }), oldForm);
      const real = forged("newest", ["0001-01-01 00:00:00.000000+00", id]);
      expect((await t.request("GET", `${path}?cursor=${real}`, { as: admin })).status, path).toBe(200);
    }
  });

  it("the other lists' cursors answer the same message", async () => {
    for (const path of [
      "/api/notifications",
      "/api/audit",
      "/api/verifications/completed",
      "/api/verifications/pending",
    ]) {
      const as = path.includes("verifications") ? await t.user("verifier") : admin;
      expectInvalidCursor(await t.request("GET", `${path}?cursor=abc`, { as }), path);
    }
  });
});
