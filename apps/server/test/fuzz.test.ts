// Bad input never answers 5xx. Every operation of the server's own OpenAPI document is sent generated requests —
// bodies of random shapes (deep nesting, huge numbers, wrong types, NUL and lone surrogates, broken JSON), query
// strings and path params (random text, random and malformed ids, real ids) — by an anonymous caller and by a
// signed-in user of every role, and no answer may be a 5xx. Deterministic: FUZZ_SEED picks the seed (printed with
// every failure, with the shrunk request), FUZZ_RUNS the requests per operation.

import { ROLES } from "@tranche/domain";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_521);
const RUNS = Number(process.env.FUZZ_RUNS ?? 14);
/** A stream never ends: the event stream is not a request/answer route. */
const SKIPPED = new Set(["get /api/events"]);

let t: TestApp;
let realIds: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const owner = await t.user("project_owner");
  const [investor, verifier] = await Promise.all([t.user("investor"), t.user("verifier")]);
  const project = await makeProject(t, { owner, investors: [investor], verifiers: [verifier] });
  const pending = await makeMilestone(t, project, { verifier });
  const inVerification = await makeMilestone(t, project, { status: "in_verification", verifier });
  realIds = [project.id, pending.id, inVerification.id, owner.id, investor.id, verifier.id];
});
afterAll(() => t.close());

// ---------- generators ----------
const NASTY = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00y",
  "null",
  "0",
  "-1",
  "1e999",
  "NaN",
  "true",
  "[]",
  "{}",
  "%",
  "%00",
  "%E0%A4%A",
  "../../etc/passwd",
  "'; select pg_sleep(1); --",
  "2026-02-31",
  "0000-01-01",
  "9999-12-31",
  "275760-09-13",
  "2026-01-01T00:00:00+99:00",
  "x".repeat(5000),
];
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 12 }),
  // Any UTF-16 code unit, so NUL and unpaired surrogates come up often.
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 8 }).map((units) => String.fromCharCode(...units)),
  fc.constantFrom(...NASTY),
);
const uuid = fc.oneof(
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.constantFrom(
    "00000000-0000-0000-0000-000000000000",
    "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "7b0c3f5e-9a1d-4c2e-8f3b-2d6a1e0c9b4",
    "7b0c3f5e9a1d4c2e8f3b2d6a1e0c9b47",
    "{7b0c3f5e-9a1d-4c2e-8f3b-2d6a1e0c9b47}",
  ),
);
const hugeNumber = fc.constantFrom(
  1e308,
  -1e308,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  1e21,
  0.1,
  -0,
  5e-324,
  123_456_789_012.345,
  2 ** 31,
);
const scalar = fc.oneof(
  text,
  hugeNumber,
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  uuid,
);
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    scalar,
    fc.array(tie("json"), { maxLength: 4 }),
    fc.dictionary(text, tie("json"), { maxKeys: 4 }),
  ),
}));
const nested = fc.tuple(fc.integer({ min: 1, max: 80 }), scalar, fc.boolean()).map(([depth, inner, asObject]) => {
  let value: unknown = inner;
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value];
  return value;
});
const anyValue = fc.oneof({ weight: 4, arbitrary: json }, { weight: 1, arbitrary: nested });

interface Param {
  name: string;
  in: "query" | "path";
  schema?: { enum?: string[] };
}
interface Operation {
  method: string;
  path: string;
  params: Param[];
  /** Property names of the JSON body schema, and its example. */
  bodyKeys: string[] | null;
  example: Record<string, unknown> | null;
}

const RAW_BODIES = [
  "",
  "{",
  "null",
  "[]",
  '"text"',
  "1e999",
  '{"a":1e999}',
  '{"__proto__":{"admin":true}}',
  '{"name":"\\ud800"}',
  '{"name":"a\\u0000"}',
  `${"[".repeat(70)}${"]".repeat(70)}`,
  `{"a":${"[".repeat(20_000)}${"]".repeat(20_000)}}`,
  "\u0000",
  "\uFEFF{}",
];

function bodyOf(op: Operation): fc.Arbitrary<string> {
  const keys = op.bodyKeys ?? [];
  const shaped = keys.length
    ? [
        // The documented fields with values of any type.
        fc.dictionary(fc.oneof(fc.constantFrom(...keys), text), anyValue, { maxKeys: keys.length + 1 }),
        // The route's own example with some fields replaced: reaches the service past the schema's first refusal.
        fc
          .tuple(
            fc.subarray(keys, { minLength: 1 }),
            fc.array(anyValue, { minLength: keys.length, maxLength: keys.length }),
          )
          .map(([replaced, values]) => ({
            ...op.example,
            ...Object.fromEntries(replaced.map((key, i) => [key, values[i]])),
          })),
        // The example with one number written as a literal JSON.parse reads as Infinity.
      ]
    : [];
  const asText = fc.oneof(anyValue, ...shaped).map((value) => JSON.stringify(value) ?? "null");
  const overflowing = op.example
    ? [fc.constant(JSON.stringify(op.example).replace(/:(-?\d+(\.\d+)?)([,}])/, ":1e999$3"))]
    : [];
  return fc.oneof({ weight: 6, arbitrary: asText }, fc.constantFrom(...RAW_BODIES), ...overflowing);
}

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  fc.constantFrom(
    "application/json; charset=utf-8",
    "text/plain",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
    "image/png",
  ),
);

/** Percent-encodes text; an unpaired surrogate (which encodeURIComponent refuses) becomes invalid UTF-8. */
function encode(value: string, raw: boolean): string {
  if (raw) return value.replace(/[&#?\s/]/g, (ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return Array.from(value)
    .map((ch) => (/\p{Cs}/u.test(ch) ? "%ED%A0%80" : encodeURIComponent(ch)))
    .join("");
}

function paramValue(param: Param): fc.Arbitrary<string> {
  const choices: fc.Arbitrary<string>[] = [text, uuid, fc.constantFrom(...realIds), fc.integer().map(String)];
  if (param.schema?.enum?.length) choices.push(fc.constantFrom(...param.schema.enum));
  return fc.oneof(...choices);
}

function requestOf(op: Operation) {
  const pathParams = op.params.filter((p) => p.in === "path");
  const queryParams = op.params.filter((p) => p.in === "query");
  return fc.record({
    caller: fc.constantFrom<"anonymous" | (typeof ROLES)[number]>("anonymous", ...ROLES),
    ip: fc.ipV4(),
    rawEncoding: fc.boolean(),
    path: fc.tuple(...pathParams.map(paramValue), fc.constant("")),
    query: fc.tuple(
      ...queryParams.map((p) => fc.option(paramValue(p), { nil: undefined })),
      fc.option(fc.tuple(text, text), { nil: undefined }),
    ),
    body:
      op.bodyKeys !== null || op.method !== "get"
        ? fc.option(bodyOf(op), { freq: 4, nil: undefined })
        : fc.constant(undefined),
    contentType,
  });
}

describe("generated requests to every documented operation", () => {
  it(
    "never answer 5xx, for an anonymous caller or any role",
    async () => {
      const doc = (await t.request("GET", "/api/openapi.json")).body;
      const ops: Operation[] = [];
      for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
        for (const [method, op] of Object.entries(methods)) {
          if (SKIPPED.has(`${method} ${path}`)) continue;
          const json = op.requestBody?.content?.["application/json"];
          ops.push({
            method,
            path,
            params: op.parameters ?? [],
            bodyKeys: json ? Object.keys(json.schema?.properties ?? {}) : null,
            example: json?.example ?? null,
          });
        }
      }
      expect(ops.length).toBeGreaterThan(100);

      const failures: string[] = [];
      for (const [index, op] of ops.entries()) {
        // Fresh users for each operation: a generated sign-out or demotion must not blind the next operation.
        const users = Object.fromEntries(
          await Promise.all(ROLES.map(async (role) => [role, await t.user(role)] as const)),
        ) as Record<(typeof ROLES)[number], TestUser>;
        const pathParams = op.params.filter((p) => p.in === "path");
        const queryParams = op.params.filter((p) => p.in === "query");
        const seed = SEED + index;
        const result = await fc.check(
          fc.asyncProperty(requestOf(op), async (req) => {
            let url = op.path;
            pathParams.forEach((p, i) => {
              url = url.replace(`{${p.name}}`, encode(req.path[i] as string, req.rawEncoding) || "x");
            });
            const pairs: string[] = [];
            queryParams.forEach((p, i) => {
              const value = req.query[i] as string | undefined;
              if (value !== undefined) pairs.push(`${p.name}=${encode(value, req.rawEncoding)}`);
            });
            const extra = req.query[queryParams.length] as [string, string] | undefined;
            if (extra) pairs.push(`${encode(extra[0], req.rawEncoding)}=${encode(extra[1], req.rawEncoding)}`);
            if (pairs.length) url += `?${pairs.join("&")}`;
            const headers: Record<string, string> = { "x-forwarded-for": req.ip };
            if (req.body !== undefined) headers["content-type"] = req.contentType;
            const res = await t.request(op.method.toUpperCase(), url, {
              as: req.caller === "anonymous" ? null : users[req.caller],
              headers,
              raw: req.body,
            });
            if (res.status >= 500) {
              throw new Error(`${op.method.toUpperCase()} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
            }
          }),
          { seed, numRuns: RUNS },
        );
        if (result.failed) {
          failures.push(
            `${op.method} ${op.path} (FUZZ_SEED=${SEED}, operation seed ${seed}, path ${result.counterexamplePath}):` +
              ` ${String(result.errorInstance).slice(0, 600)}\n  counterexample: ${fc.stringify(result.counterexample).slice(0, 600)}`,
          );
        }
      }
      expect(failures, failures.join("\n\n")).toEqual([]);
    },
    10 * 60_000,
  );
});
