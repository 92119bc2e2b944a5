// Holes found by the robustness sweep and the security review, each pinned by a test that failed before
// its fix: input that used to reach the database as a 500, and permission or header mistakes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../src/db/client";
import { milestones, pushSubscriptions } from "../src/db/schema";
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
  [owner, investor, verifier] = await Promise.all([t.user("project_owner"), t.user("investor"), t.user("verifier")]);
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

describe("dates that are not calendar days", () => {
  it("answer 400 on bodies and the dueBefore filter instead of a database error", async () => {
    const project = await makeProject(t, { owner });
    for (const dueDate of ["2999-02-30", "9999-99-99", "2999-13-01"]) {
      const res = await t.request("POST", `/api/projects/${project.id}/milestones`, {
        as: owner,
        body: { title: "Dated", description: "A milestone with a bad date.", dueDate, capitalAmount: 10 },
      });
      expect(res.status, dueDate).toBe(400);
      expect(res.body.error.details).toHaveProperty("dueDate");
    }
    const patched = await t.request("PATCH", `/api/projects/${project.id}`, {
      as: owner,
      body: { startDate: "0000-01-01" },
    });
    expect(patched.status).toBe(400);
    const listed = await t.request("GET", "/api/milestones?dueBefore=2025-02-30", { as: owner });
    expect(listed.status).toBe(400);
    expect(listed.body.error.details).toHaveProperty("dueBefore");
    const leap = await t.request("GET", "/api/milestones?dueBefore=2028-02-29", { as: owner });
    expect(leap.status).toBe(200);
  });
});

describe("the inbound requests cursor", () => {
  it("answers 400 for a well-formed cursor that is not a real instant", async () => {
    const admin = await t.user("admin");
    const id = "7b0c3f5e-9a1d-4c2e-8f3b-2d6a1e0c9b47";
    const cursor = (at: string) => Buffer.from(JSON.stringify({ s: "newest", k: [at, id] })).toString("base64url");
    for (const at of ["2024-13-45 99:99:99.000000+00", "2024-02-30 10:00:00.000000+00"]) {
      const res = await t.request("GET", `/api/public-requests?cursor=${cursor(at)}`, { as: admin });
      expect(res.status, at).toBe(400);
      expect(res.body.error.details).toHaveProperty("cursor");
    }
    const real = await t.request("GET", `/api/public-requests?cursor=${cursor("2024-02-29 10:00:00.123456+00")}`, {
      as: admin,
    });
    expect(real.status).toBe(200);
  });
});

describe("text with an unpaired surrogate", () => {
  it("is refused with 400 naming the field (jsonb refuses it in the audit record), emoji are fine", async () => {
    const bad = await t.request("POST", "/api/projects", {
      as: owner,
      raw: '{"name":"a\\ud800","description":"D","location":"L","totalCapital":10}',
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual({ name: "Text must be valid Unicode." });
    const emoji = await t.request("POST", "/api/projects", {
      as: owner,
      body: { name: "Solar 🌞 farm", description: "D", location: "L", totalCapital: 10 },
    });
    expect(emoji.status).toBe(201);
    expect(emoji.body.name).toBe("Solar 🌞 farm");
  });

  it("a body that is not UTF-8 is refused with 400, not stored with its bytes replaced by U+FFFD", async () => {
    const before = await t.request("GET", "/api/me/profile", { as: owner });
    const bytes = Buffer.concat([
      Buffer.from('{"name":"Owen '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' Adeyemi","organization":"Solaris"}'),
    ]);
    const bad = await t.request("PATCH", "/api/me/profile", {
      as: owner,
      raw: bytes,
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_input", message: "The request body is not valid UTF-8." });
    expect((await t.request("GET", "/api/me/profile", { as: owner })).body).toEqual(before.body);
  });
});

describe("a total capital below half a cent", () => {
  it("answers 400 naming the smallest total, a cent (stored to the cent it would break the positive-total check)", async () => {
    const res = await t.request("POST", "/api/projects", {
      as: owner,
      body: { name: "Tiny", description: "D", location: "L", totalCapital: 0.000001 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual({ totalCapital: "Total capital must be at least 0.01." });
    const project = await makeProject(t, { owner });
    const patched = await t.request("PATCH", `/api/projects/${project.id}`, {
      as: owner,
      body: { totalCapital: 0.004 },
    });
    expect(patched.status).toBe(400);
  });
});

describe("the client address behind a proxy", () => {
  it("is the hop the proxy appended, so a forged X-Forwarded-For cannot dodge or aim the sign-in limit", async () => {
    const limited = await createTestApp({ SIGNIN_LIMIT_PER_IP: 2 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.request("POST", "/api/auth/sign-in", {
          body: { email: "nobody@example.test", password: "wrong" },
          headers: { "x-forwarded-for": `10.0.0.${i}, 203.0.113.77` },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 429]);
      // A value that is not an address counts as the socket's address, never as a key of its own.
      const junk = await limited.request("POST", "/api/auth/sign-in", {
        body: { email: "nobody@example.test", password: "wrong" },
        headers: { "x-forwarded-for": "signin:email:victim@example.test" },
      });
      expect(junk.status).toBe(401);
      const [row] = await queryRows<{ n: number }>(
        limited.deps.db,
        sql`select count(*)::int as n from rate_limits where key like '%victim%'`,
      );
      expect(Number(row.n)).toBe(0);
    } finally {
      await limited.close();
    }
  });
});

function uploadForm(name: string, content: string, type: string): FormData {
  const data = new FormData();
  data.append("files", new Blob([content], { type }), name);
  return data;
}

describe("evidence downloads", () => {
  it("keep their own sandbox Content-Security-Policy (the app-wide one used to overwrite it)", async () => {
    const project = await makeProject(t, { owner });
    const milestone = await makeMilestone(t, project);
    const up = await t.request("POST", `/api/milestones/${milestone.id}/evidence`, {
      as: owner,
      raw: uploadForm("page.html", "<script>alert(1)</script>", "text/html"),
    });
    expect(up.status).toBe(201);
    const res = await t.request("GET", `/api/evidence/${up.body.items[0].id}`, { as: owner });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
    // The rest of the API keeps the app-wide policy.
    const me = await t.request("GET", "/api/me", { as: owner });
    expect(me.headers.get("content-security-policy")).toContain("default-src 'self'");
  });
});

describe("evidence file names", () => {
  it("keep their UTF-8 characters and download with a header that quotes nothing raw", async () => {
    const project = await makeProject(t, { owner });
    const milestone = await makeMilestone(t, project);
    const up = await t.request("POST", `/api/milestones/${milestone.id}/evidence`, {
      as: owner,
      raw: uploadForm("Résumé d'étape (1)*.pdf", "%PDF", "application/pdf"),
    });
    expect(up.status).toBe(201);
    expect(up.body.items[0].originalName).toBe("Résumé d'étape (1)*.pdf");
    const res = await t.request("GET", `/api/evidence/${up.body.items[0].id}`, { as: owner });
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="R_sum_ d'_tape (1)*.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20d%27%C3%A9tape%20%281%29%2A.pdf`,
    );
  });

  it("drop quotes' escapes and line breaks from the plain filename parameter", async () => {
    const project = await makeProject(t, { owner });
    const milestone = await makeMilestone(t, project);
    const raw = [
      "--b",
      'Content-Disposition: form-data; name="files"; filename="a\\"b\\\\c.txt"',
      "Content-Type: text/plain",
      "",
      "hello",
      "--b--",
      "",
    ].join("\r\n");
    const up = await t.request("POST", `/api/milestones/${milestone.id}/evidence`, {
      as: owner,
      raw,
      headers: { "content-type": "multipart/form-data; boundary=b" },
    });
    expect(up.status).toBe(201);
    const res = await t.request("GET", `/api/evidence/${up.body.items[0].id}`, { as: owner });
    const header = res.headers.get("content-disposition") ?? "";
    const plain = header.match(/filename="([^"]*)"/)?.[1] ?? "";
    expect(plain).not.toMatch(/["\\\r\n]/);
    expect(header).not.toMatch(/[\r\n]/);
  });
});

describe("push endpoints naming this host", () => {
  it("are refused when subscribing, however the name is written; a script's device is an unknown device", async () => {
    const keys = {
      p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
      auth: "tBHItJI5svbpez7KI4CCXg",
    };
    for (const endpoint of [
      "https://localhost/push",
      "https://localhost./push",
      "https://LOCALHOST/push",
      "https://push.localhost/push",
      "https://127.0.0.1/push",
      "https://[::1]/push",
      "https://10.0.0.8/push",
    ]) {
      const res = await t.request("POST", "/api/push/subscriptions", { as: investor, body: { endpoint, keys } });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.error.details.endpoint).toBe("The push service's URL names a private or loopback address.");
    }
    const ok = await t.request("POST", "/api/push/subscriptions", {
      as: investor,
      body: { endpoint: "https://push.example/send/1", keys },
      headers: { "user-agent": "node" },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.device).toBe("Unknown device");
  });
});

describe("push endpoints with a user name or password, or a host no push service has", () => {
  it("are refused when subscribing with 400 naming the endpoint, and nothing is kept", async () => {
    const keys = {
      p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
      auth: "tBHItJI5svbpez7KI4CCXg",
    };
    const user = await t.user("investor");
    const refusals = {
      "https://user:pass@push.example/send/1": "The push service's URL must not carry a user name or password.",
      "https://user@push.example/send/1": "The push service's URL must not carry a user name or password.",
      "https://:secret@push.example/send/1": "The push service's URL must not carry a user name or password.",
      "https://intranet/send/1": "The push service's URL must name a public host (a name with a dot).",
    };
    for (const [endpoint, message] of Object.entries(refusals)) {
      const res = await t.request("POST", "/api/push/subscriptions", { as: user, body: { endpoint, keys } });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.error.details.endpoint, endpoint).toBe(message);
    }
    const kept = await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id));
    expect(kept).toEqual([]);
  });
});

describe("one Idempotency-Key sent with two different approvals at once", () => {
  it("approves one and answers the other 409, never a 500 from the key's primary key", async () => {
    for (let round = 0; round < 3; round++) {
      const project = await makeProject(t, { owner, verifiers: [verifier] });
      const [a, b] = await Promise.all([
        makeMilestone(t, project, { status: "in_verification", verifier }),
        makeMilestone(t, project, { status: "in_verification", verifier }),
      ]);
      const key = `same-key-${round}-${project.id}`;
      const results = await Promise.all(
        [a, b].map((m) =>
          t.request("POST", `/api/milestones/${m.id}/approve`, { as: verifier, headers: { "idempotency-key": key } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const [{ n }] = await queryRows<{ n: number }>(
        t.deps.db,
        sql`select count(*)::int as n from disbursements where project_id = ${project.id}`,
      );
      expect(Number(n)).toBe(1);
    }
  });
});

describe("permission checks the review walked through (the permissions table)", () => {
  it("holds for mixed memberships, removed verifiers, outsiders and non-admins", async () => {
    const [mixedOwner, otherVerifier, outsider] = await Promise.all([
      t.user("project_owner"),
      t.user("verifier"),
      t.user("investor"),
    ]);
    // A project_owner who only invests here cannot touch this owner's milestones.
    const project = await makeProject(t, { owner, investors: [mixedOwner], verifiers: [verifier, otherVerifier] });
    const pending = await makeMilestone(t, project);
    const inVerification = await makeMilestone(t, project, { status: "in_verification", verifier });
    const edit = await t.request("PATCH", `/api/milestones/${pending.id}`, { as: mixedOwner, body: { title: "Mine" } });
    expect(edit.status).toBe(403);
    expect((await t.request("DELETE", `/api/milestones/${pending.id}`, { as: mixedOwner })).status).toBe(403);

    // A verifier removed from the project can no longer start, approve or even see it.
    const admin = await t.user("admin");
    const removed = await t.request("DELETE", `/api/projects/${project.id}/members/${otherVerifier.id}?role=verifier`, {
      as: admin,
    });
    expect(removed.status).toBe(204);
    expect((await t.request("POST", `/api/milestones/${pending.id}/start`, { as: otherVerifier })).status).toBe(404);
    expect(
      (await t.request("POST", `/api/milestones/${inVerification.id}/approve`, { as: otherVerifier })).status,
    ).toBe(404);
    expect((await t.request("GET", `/api/milestones/${pending.id}/history`, { as: otherVerifier })).status).toBe(404);

    // An outsider reads nothing of the project: evidence, history, audit, reports.
    const up = await t.request("POST", `/api/milestones/${pending.id}/evidence`, {
      as: owner,
      raw: uploadForm("plan.txt", "plan", "text/plain"),
    });
    for (const path of [
      `/api/milestones/${pending.id}/evidence`,
      `/api/evidence/${up.body.items[0].id}`,
      `/api/milestones/${pending.id}/history`,
      `/api/milestones/${pending.id}/verification`,
    ]) {
      expect((await t.request("GET", path, { as: outsider })).status, path).toBe(404);
    }
    const audit = await t.request("GET", `/api/audit?projectId=${project.id}`, { as: outsider });
    expect(audit.body.items).toEqual([]);
    const reports = await t.request("GET", "/api/reports", { as: outsider });
    expect(reports.body.items).toEqual([]);

    // Users and inbound requests are for admins; another user's notification is not found.
    for (const who of [owner, verifier, outsider]) {
      expect((await t.request("GET", "/api/users", { as: who })).status).toBe(403);
      expect((await t.request("GET", "/api/public-requests", { as: who })).status).toBe(403);
    }
    const list = await t.request("GET", "/api/notifications", { as: otherVerifier });
    const theirs = list.body.items[0].id;
    expect((await t.request("POST", `/api/notifications/${theirs}/read`, { as: outsider })).status).toBe(404);
  });
});
