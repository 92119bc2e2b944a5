// The OpenAPI document, generated from the declared routes: valid OpenAPI 3.1, one operation per registered /api
// route and no other, request examples that the route's own schema accepts, money as numbers, and interactive
// docs that load under the app's CSP. The harness checks every JSON answer of every server test against it.
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { contractOf } from "./contract";
import { createTestApp, type TestApp } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** An operation of the parsed document, read as JSON. */
type Operation = { summary: string; description?: string; requestBody?: any };

const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const res = await t.request("GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const result = await new Validator().validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("lists every /api route the app registers, and nothing else", async () => {
    const registered = new Set<string>();
    for (const r of t.app.routes) {
      if (r.method === "ALL" || !r.path.startsWith("/api/") || r.path.includes("*")) continue;
      if (r.path.startsWith("/api/docs/")) continue; // the docs page's own assets
      registered.add(`${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`);
    }
    const { body } = await t.request("GET", "/api/openapi.json");
    const documented = new Set<string>();
    for (const [path, methods] of Object.entries(body.paths as Record<string, object>)) {
      for (const method of Object.keys(methods)) documented.add(`${method} ${path}`);
    }
    expect([...registered].filter((r) => !documented.has(r)).sort(), "registered but not documented").toEqual([]);
    expect([...documented].filter((d) => !registered.has(d)).sort(), "documented but not registered").toEqual([]);
  });

  it("names both auth schemes and the error contract on every operation", async () => {
    const { body } = await t.request("GET", "/api/openapi.json");
    expect(Object.keys(body.components.securitySchemes).sort()).toEqual(["bearerToken", "sessionCookie"]);
    for (const [path, methods] of Object.entries(body.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(methods)) {
        expect(op.responses["503"], `${method} ${path}`).toBeDefined();
        if (op.security.length > 0) expect(op.responses["401"], `${method} ${path}`).toBeDefined();
      }
    }
    expect(
      body.paths["/api/projects"].post.requestBody.content["application/json"].schema.properties.name,
    ).toBeDefined();
  });

  it("gives request examples the route's own schema accepts", () => {
    let checked = 0;
    for (const definition of t.app.openAPIRegistry.definitions) {
      if (definition.type !== "route") continue;
      const { method, path, request } = definition.route;
      const media = request?.body?.content["application/json"] as { schema: z.ZodType; example?: unknown } | undefined;
      if (!media) continue;
      expect(media.example, `${method} ${path} has an example`).toBeDefined();
      const parsed = media.schema.safeParse(media.example);
      expect(parsed.success, `${method} ${path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("describes money as numbers, as the API answers it", async () => {
    const { body } = await t.request("GET", "/api/openapi.json");
    const { ProjectSummary, Release, Milestone } = body.components.schemas;
    expect(ProjectSummary.properties.totalCapital.type).toBe("number");
    expect(ProjectSummary.example.totalCapital).toBe(12500000);
    expect(Release.example.amount).toBe(2500000);
    expect(Milestone.example.capitalAmount).toBe(2500000);
    expect(JSON.stringify(body)).not.toMatch(/"\d+\.\d{2}"/);
  });

  it("describes GET /api/analytics as answered to every signed-in role, for its own projects", async () => {
    const { body } = await t.request("GET", "/api/openapi.json");
    const analytics = body.paths["/api/analytics"].get;
    expect(analytics.description).toMatch(/everyone else their own projects/);
    expect(analytics.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/Analytics");
    for (const role of ["investor", "project_owner", "verifier", "admin"] as const) {
      const res = await t.request("GET", "/api/analytics", { as: await t.user(role) });
      expect(res.status, role).toBe(200);
    }
  });

  it("says in the summary when a verifier's or admin's action needs the second factor, as the description does", async () => {
    const { body } = await t.request("GET", "/api/openapi.json");
    const unsaid: string[] = [];
    for (const [path, methods] of Object.entries(body.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(methods)) {
        const needsIt = /Roles in MFA_REQUIRED_ROLES must have passed the second factor/.test(op.description ?? "");
        const byThoseRoles = /\([^)]*(verifier|admins)/.test(op.summary); // the actor, in parentheses
        if (needsIt && byThoseRoles && !/second factor/.test(op.summary))
          unsaid.push(`${method} ${path}: ${op.summary}`);
      }
    }
    expect(unsaid).toEqual([]);
  });

  it("names every way POST /api/auth/mfa/verify passes the second factor", async () => {
    const { body } = await t.request("GET", "/api/openapi.json");
    const verify = body.paths["/api/auth/mfa/verify"].post as Operation;
    const schema = verify.requestBody.content["application/json"].schema;
    const fields = Object.keys(
      (schema.$ref ? body.components.schemas[schema.$ref.split("/").pop()] : schema).properties,
    );
    expect(fields).toEqual(expect.arrayContaining(["code", "passkey"]));
    expect(verify.summary).toMatch(/passkey/);
    expect(verify.summary).toMatch(/code from the app/);
    expect(verify.summary).toMatch(/recovery code/);
  });

  it("refuses an answer the document does not describe", async () => {
    const { body } = await t.request("GET", "/api/openapi.json");
    const contract = contractOf(body);
    const json = "application/json";
    expect(() => contract.check("GET", "/api/auth/options", 200, json, { signUpAllowed: true })).not.toThrow();
    // A field the schema does not declare, a field of the wrong type, a status the route does not declare.
    expect(() => contract.check("GET", "/api/auth/options", 200, json, { signUpAllowed: true, extra: 1 })).toThrow(
      /schema refuses/,
    );
    expect(() => contract.check("GET", "/api/auth/options", 200, json, { signUpAllowed: "yes" })).toThrow(
      /schema refuses/,
    );
    expect(() => contract.check("GET", "/api/auth/options", 418, json, {})).toThrow(/does not declare/);
    // A fixed segment is matched before a parameter, and the error shape is checked too.
    const notFound = { error: { code: "not_found", message: "Project not found." } };
    expect(() => contract.check("GET", "/api/projects/counts", 200, json, { total: 1 })).toThrow(/schema refuses/);
    expect(() => contract.check("GET", `/api/projects/${crypto.randomUUID()}`, 404, json, notFound)).not.toThrow();
    expect(() => contract.check("GET", "/api/projects/x", 404, json, { error: "no" })).toThrow(/schema refuses/);
  });
});

describe("GET /api/docs", () => {
  it("serves the docs page and its assets with no inline script, under script-src 'self'", async () => {
    const page = await t.app.request("/api/docs");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    for (const src of (html.match(/(?<=(src|href)=")[^"]+/g) ?? []).filter((s) => s.startsWith("/"))) {
      const asset = await t.app.request(src);
      expect(asset.status, src).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, src).toBeGreaterThan(0);
    }
    expect(await (await t.app.request("/api/docs/init.js")).text()).toContain("/api/openapi.json");
    expect((await t.app.request("/api/docs/nothing.js")).status).toBe(404);
  });
});
