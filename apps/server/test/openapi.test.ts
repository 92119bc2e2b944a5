// The OpenAPI document: valid OpenAPI 3.1, one operation per registered /api route and no other, request
// examples that the route's own schema accepts, and interactive docs that load under the app's CSP.
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/openapi/operations";
import { createTestApp, type TestApp } from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

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
    for (const op of operations()) {
      if (!op.body) continue;
      expect(op.bodyExample, `${op.method} ${op.path} has an example`).toBeDefined();
      const parsed = op.body.safeParse(op.bodyExample);
      expect(parsed.success, `${op.method} ${op.path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
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
