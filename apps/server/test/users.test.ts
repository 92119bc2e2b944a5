import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, users } from "../src/db/schema";
import { createTestApp, type TestApp } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GET /api/users", () => {
  it("lists every user with their role for an admin", async () => {
    const admin = await t.user("admin", { name: "Ada Admin" });
    const owner = await t.user("project_owner", { name: "Bo Owner", organization: "Solaris" });
    const res = await t.request("GET", "/api/users", { as: admin });
    expect(res.status).toBe(200);
    const bo = res.body.items.find((u: { id: string }) => u.id === owner.id);
    expect(bo).toMatchObject({ name: "Bo Owner", email: owner.email, role: "project_owner", organization: "Solaris" });
    expect(typeof bo.createdAt).toBe("string");
    expect(bo.passwordHash).toBeUndefined();
  });

  it("refuses everyone else: 401 signed out, 403 for other roles", async () => {
    expect((await t.request("GET", "/api/users")).status).toBe(401);
    for (const role of ["investor", "project_owner", "verifier"] as const) {
      const res = await t.request("GET", "/api/users", { as: await t.user(role) });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
  });
});

describe("PATCH /api/users/:id", () => {
  it("changes a role, audits it and tells the user", async () => {
    const [admin, user] = [await t.user("admin"), await t.user("project_owner")];
    const res = await t.request("PATCH", `/api/users/${user.id}`, { as: admin, body: { role: "investor" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, role: "investor" });
    const [row] = await t.deps.db.select({ role: users.role }).from(users).where(eq(users.id, user.id));
    expect(row.role).toBe("investor");
    const audit = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, user.id), eq(auditEvents.action, "user.role_changed")));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: admin.id,
      before: { role: "project_owner" },
      after: { role: "investor" },
    });
    // The new role applies to the user's very next request.
    const me = await t.request("GET", "/api/me", { as: user });
    expect(me.body.role).toBe("investor");
    const notes = await t.request("GET", "/api/notifications", { as: user });
    expect(notes.body.items[0]).toMatchObject({ category: "account", title: "Your role has changed" });
  });

  it("changes nothing and tells nobody when the role is the same", async () => {
    const [admin, user] = [await t.user("admin"), await t.user("verifier")];
    const res = await t.request("PATCH", `/api/users/${user.id}`, { as: admin, body: { role: "verifier" } });
    expect(res.status).toBe(200);
    expect((await t.request("GET", "/api/notifications", { as: user })).body.items).toEqual([]);
  });

  it("refuses bad input with 400 and the field message", async () => {
    const [admin, user] = [await t.user("admin"), await t.user("project_owner")];
    const bad = await t.request("PATCH", `/api/users/${user.id}`, { as: admin, body: { role: "king" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.role).toBe("Role must be investor, project_owner, verifier or admin.");
    const extra = await t.request("PATCH", `/api/users/${user.id}`, {
      as: admin,
      body: { role: "admin", email: "x@example.test" },
    });
    expect(extra.status).toBe(400);
    const [row] = await t.deps.db.select({ role: users.role }).from(users).where(eq(users.id, user.id));
    expect(row.role).toBe("project_owner");
  });

  it("answers 404 for an unknown user, 403 for a non-admin, and never lets an admin demote themself", async () => {
    const admin = await t.user("admin");
    const missing = await t.request("PATCH", "/api/users/00000000-0000-4000-8000-000000000000", {
      as: admin,
      body: { role: "investor" },
    });
    expect(missing.status).toBe(404);
    expect((await t.request("PATCH", "/api/users/nope", { as: admin, body: { role: "investor" } })).status).toBe(404);

    const owner = await t.user("project_owner");
    const self = await t.request("PATCH", `/api/users/${owner.id}`, { as: owner, body: { role: "admin" } });
    expect(self.status).toBe(403);

    const demote = await t.request("PATCH", `/api/users/${admin.id}`, { as: admin, body: { role: "investor" } });
    expect(demote.status).toBe(422);
    expect(demote.body.error.message).toBe("You cannot change your own admin role.");
    const [row] = await t.deps.db.select({ role: users.role }).from(users).where(eq(users.id, admin.id));
    expect(row.role).toBe("admin");
  });
});
