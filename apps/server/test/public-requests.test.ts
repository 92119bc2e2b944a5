import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, publicRequests } from "../src/db/schema";
import { createTestApp, type TestApp } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_FORM_LIMIT_PER_IP: 3 });
});
afterAll(() => t.close());

let n = 0;
/** Each test sends from its own address, so the per-address limit of one test does not touch another. */
const fromIp = () => ({ "x-forwarded-for": `203.0.113.${++n}` });

describe("POST /api/public-requests", () => {
  it("stores a demo request without sign-in, with an audit event that keeps no personal details", async () => {
    const res = await t.request("POST", "/api/public-requests", {
      headers: fromIp(),
      body: {
        kind: "demo",
        email: "  Ada.Lovelace@Example.TEST ",
        name: "Ada Lovelace",
        organization: "Analytical Capital",
        message: "We run 40 infrastructure projects and want milestone-gated releases.",
        source: "/contact",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: "demo",
      email: "ada.lovelace@example.test",
      name: "Ada Lovelace",
      organization: "Analytical Capital",
      source: "/contact",
    });
    expect(res.body).not.toHaveProperty("ip");
    const [row] = await t.deps.db.select().from(publicRequests).where(eq(publicRequests.id, res.body.id));
    expect(row.ip).toMatch(/^203\.0\.113\./);
    const [event] = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.entityId, res.body.id));
    expect(event).toMatchObject({ action: "public_request.received", entityType: "public_request", actorId: null });
    expect(JSON.stringify(event.after)).not.toContain("ada.lovelace");
  });

  it("stores empty optional fields as absent", async () => {
    const res = await t.request("POST", "/api/public-requests", {
      headers: fromIp(),
      body: { kind: "early_access", email: "field@example.test", name: "", organization: "" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: null, organization: null, message: null, source: null });
  });

  it("refuses an invalid e-mail, an unknown kind and unknown fields with 400 and field messages", async () => {
    const headers = fromIp();
    const bad = await t.request("POST", "/api/public-requests", {
      headers,
      body: { kind: "demo", email: "not-an-email" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.email).toBe("Enter a valid email address.");
    const kind = await t.request("POST", "/api/public-requests", {
      headers: fromIp(),
      body: { kind: "newsletter", email: "a@example.test" },
    });
    expect(kind.status).toBe(400);
    expect(kind.body.error.details.kind).toBe("Unknown request type.");
    const extra = await t.request("POST", "/api/public-requests", {
      headers: fromIp(),
      body: { kind: "demo", email: "a@example.test", role: "admin" },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details.role).toBe("Unknown field.");
    const source = await t.request("POST", "/api/public-requests", {
      headers: fromIp(),
      body: { kind: "demo", email: "a@example.test", source: "x".repeat(201) },
    });
    expect(source.status).toBe(400);
    expect(source.body.error.details.source).toBe("Source must be at most 200 characters.");
  });

  it("answers 429 with Retry-After past PUBLIC_FORM_LIMIT_PER_IP from one address, and counts only that address", async () => {
    const headers = fromIp();
    for (let i = 0; i < 3; i++) {
      const ok = await t.request("POST", "/api/public-requests", {
        headers,
        body: { kind: "verifier_partner", email: `p${i}@example.test` },
      });
      expect(ok.status).toBe(201);
    }
    const limited = await t.request("POST", "/api/public-requests", {
      headers,
      body: { kind: "verifier_partner", email: "p4@example.test" },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await t.request("POST", "/api/public-requests", {
      headers: fromIp(),
      body: { kind: "verifier_partner", email: "p5@example.test" },
    });
    expect(other.status).toBe(201);
  });
});

describe("GET /api/public-requests", () => {
  it("is for admins only: 401 signed out, 403 for other roles", async () => {
    expect((await t.request("GET", "/api/public-requests")).status).toBe(401);
    for (const role of ["investor", "project_owner", "verifier"] as const) {
      const res = await t.request("GET", "/api/public-requests", { as: await t.user(role) });
      expect(res.status).toBe(403);
    }
  });

  it("lists requests newest first and pages through them with the cursor", async () => {
    const admin = await t.user("admin");
    const emails: string[] = [];
    for (let i = 0; i < 3; i++) {
      const email = `page${i}.${Date.now()}@example.test`;
      emails.push(email);
      const res = await t.request("POST", "/api/public-requests", { headers: fromIp(), body: { kind: "demo", email } });
      expect(res.status).toBe(201);
    }
    const first = await t.request("GET", "/api/public-requests?limit=2", { as: admin });
    expect(first.status).toBe(200);
    expect(first.body.items.map((i: { email: string }) => i.email)).toEqual([emails[2], emails[1]]);
    expect(first.body.items[0]).not.toHaveProperty("ip");
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await t.request("GET", `/api/public-requests?limit=2&cursor=${first.body.nextCursor}`, {
      as: admin,
    });
    expect(second.status).toBe(200);
    expect(second.body.items[0].email).toBe(emails[0]);
    const all = await t.request("GET", "/api/public-requests", { as: admin });
    const times = all.body.items.map((i: { createdAt: string }) => i.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const bad = await t.request("GET", "/api/public-requests?cursor=nope", { as: admin });
    expect(bad.status).toBe(400);
  });
});
