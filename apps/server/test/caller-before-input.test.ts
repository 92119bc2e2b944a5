// The API answers who may call before what was asked (ADR 023): a caller who may not call a route learns nothing
// from it, not even whether their id, path or body would have been accepted. Every operation the server documents
// as needing a session is called signed out and with an API token it does not take, with an id that is not one, an
// id that names nothing, and a body that is not JSON: each answer is 401 (signed out) or 401/403 (the token).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./harness";

interface Operation {
  security?: Record<string, string[]>[];
}

let t: TestApp;
let token: string;
let operations: { method: string; path: string; operation: Operation }[];

beforeAll(async () => {
  t = await createTestApp({ API_TOKEN_LIMIT_PER_MINUTE: 100_000 });
  const admin = await t.user("admin");
  const created = await t.request("POST", "/api/api-tokens", {
    as: admin,
    body: { name: "Probe", scopes: ["projects:read"] },
  });
  expect(created.status).toBe(201);
  token = created.body.token;
  const document = (await (await t.app.request("/api/openapi.json")).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
});
afterAll(() => t.close());

/** The operations a signed-out caller may not call (the event stream never ends: it is not a request/answer). */
const guarded = () =>
  operations.filter(({ path, operation }) => (operation.security?.length ?? 0) > 0 && path !== "/api/events");

/** The path with every parameter a malformed id, or a well-formed one that names nothing (a flag's code kept real). */
const fill = (path: string, id: string) => path.replace("{code}", "reused_file").replaceAll(/\{[^}]+\}/g, id);
const IDS = ["not-a-uuid", "00000000-0000-4000-8000-000000000000"];

async function answers(headers: Record<string, string>, operationsToCall = guarded()) {
  const calls: string[] = [];
  for (const { method, path } of operationsToCall) {
    for (const id of IDS) {
      const url = fill(path, id);
      const res = await t.request(method, url, {
        headers: { ...headers, "content-type": "application/json" },
        raw: method === "GET" ? undefined : '{"reason": ',
      });
      calls.push(`${method} ${url} ${res.status}`);
    }
  }
  return calls;
}

describe("permission before input, on every route that needs a session", () => {
  it("answers a signed-out caller 401, whatever the id and the body", async () => {
    const calls = await answers({});
    expect(calls.length).toBeGreaterThan(150);
    expect(calls.filter((call) => !call.endsWith(" 401"))).toEqual([]);
  });

  it("answers an API token on a route it does not take 401 or 403, whatever the id and the body", async () => {
    const sessionOnly = guarded().filter(
      ({ operation }) => !operation.security?.some((scheme) => "bearerToken" in scheme),
    );
    const calls = await answers({ authorization: `Bearer ${token}` }, sessionOnly);
    expect(calls.length).toBeGreaterThan(150);
    expect(calls.filter((call) => !/ 40[13]$/.test(call))).toEqual([]);
  });
});
