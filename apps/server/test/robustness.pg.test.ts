// Every route the app registers, called by every role and signed out with hostile input: bad ids, malformed
// and mistyped bodies, odd query strings and headers. Whatever arrives, the answer is below 500 and an
// error answer has the { error: { code, message } } body (docs/architecture.md "How a request flows").
// It runs in the PostgreSQL suite only: what it checks is the HTTP layer's validation, the same on either engine,
// and at some 2,000 requests it is the slowest server test file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  acceptInvitationSchema,
  approveSchema,
  assignDisputeSchema,
  cancelReleaseSchema,
  changePasswordSchema,
  checklistSchema,
  confirmPasswordSchema,
  countersignSchema,
  createApiTokenSchema,
  createInvitationSchema,
  createMilestoneSchema,
  createProjectSchema,
  createWebhookEndpointSchema,
  dismissFlagSchema,
  disputeSchema,
  emailPreferencesSchema,
  enableTotpSchema,
  failReleaseSchema,
  forgotPasswordSchema,
  leadInvestorSchema,
  memberSchema,
  passkeySignInSchema,
  publicRequestSchema,
  pushSubscriptionSchema,
  registerPasskeySchema,
  rejectSchema,
  releasePolicySchema,
  reportSchema,
  resetPasswordSchema,
  secondFactorChangeSchema,
  secondFactorSchema,
  settleReleaseSchema,
  signInSchema,
  signUpSchema,
  transferOwnershipSchema,
  updateMilestoneSchema,
  updateProfileSchema,
  updateProjectSchema,
  updateUserSchema,
  updateWebhookEndpointSchema,
  verifyEmailSchema,
} from "@tranche/domain";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, disbursements, evidence, notifications } from "../src/db/schema";
import { daysFromNow, makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

let dataDir: string;
let t: TestApp;
let blob: { sha256: string; size: number };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-robustness-"));
  // Limits high enough that hostile bodies reach validation instead of stopping at 429.
  t = await createTestApp({
    DATA_DIR: dataDir,
    MAX_UPLOAD_MB: 0.05,
    SIGNIN_LIMIT_PER_IP: 1_000_000,
    SIGNUP_LIMIT_PER_IP: 1_000_000,
    PUBLIC_FORM_LIMIT_PER_IP: 1_000_000,
  });
  // One real blob on disk, so evidence rows of every world can be downloaded.
  const owner = await t.user("project_owner");
  const project = await makeProject(t, { owner });
  const milestone = await makeMilestone(t, project);
  const data = new FormData();
  data.append("files", new Blob(["robust evidence"], { type: "text/plain" }), "seed.txt");
  const res = await t.request("POST", `/api/milestones/${milestone.id}/evidence`, { as: owner, raw: data });
  expect(res.status).toBe(201);
  blob = { sha256: res.body.items[0].sha256, size: res.body.items[0].size };
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type RoleName = "investor" | "project_owner" | "verifier" | "admin";
const ROLES: RoleName[] = ["investor", "project_owner", "verifier", "admin"];

/** A fresh set of users and data for one route, so deletes and sign-outs of one route spare the others. */
async function makeWorld() {
  const [investor, owner, verifier, admin, otherOwner] = await Promise.all([
    t.user("investor"),
    t.user("project_owner"),
    t.user("verifier"),
    t.user("admin"),
    t.user("project_owner"),
  ]);
  const mine = await makeProject(t, { owner, investors: [investor], verifiers: [verifier] });
  const theirs = await makeProject(t, { owner: otherOwner });
  const milestone = await makeMilestone(t, mine, { status: "in_verification", verifier });
  const hiddenMilestone = await makeMilestone(t, theirs);
  // A release on each project (the factory releases a verified milestone), and an API token.
  const releases = [];
  for (const project of [mine, theirs]) {
    const done = await makeMilestone(t, project, { status: "verified", verifier });
    const [release] = await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, done.id));
    releases.push(release);
  }
  const [token] = await t.deps.db
    .insert(apiTokens)
    .values({
      name: "Robust",
      tokenHash: `robust-${Math.random()}`,
      prefix: "trk_robust",
      scopes: ["releases:read"],
      createdBy: admin.id,
    })
    .returning();
  const [visibleEvidence, hiddenEvidence] = await t.deps.db
    .insert(evidence)
    .values(
      [milestone, hiddenMilestone].map((m, i) => ({
        milestoneId: m.id,
        sha256: blob.sha256,
        size: blob.size,
        contentType: "text/plain",
        originalName: `evidence ${i}.txt`,
        uploadedBy: i === 0 ? owner.id : otherOwner.id,
      })),
    )
    .returning();
  const notes = await t.deps.db
    .insert(notifications)
    .values(
      [investor, owner, verifier, admin, otherOwner].map((u) => ({
        userId: u.id,
        title: "Robustness",
        message: "A notification for the robustness test.",
        category: "milestone",
      })),
    )
    .returning();
  const users: Record<RoleName, TestUser> = { investor, project_owner: owner, verifier, admin };
  // Per path parameter kind: an id the caller can see, one they cannot, and a made-up one.
  const ids = {
    project: { visible: mine.id, hidden: theirs.id },
    milestone: { visible: milestone.id, hidden: hiddenMilestone.id },
    evidence: { visible: visibleEvidence.id, hidden: hiddenEvidence.id },
    notification: { visible: notes[0].id, hidden: notes[4].id },
    user: { visible: investor.id, hidden: otherOwner.id },
    release: { visible: releases[0].id, hidden: releases[1].id },
    apiToken: { visible: token.id, hidden: RANDOM_UUID },
  };
  return { users, ids, notifications: notes };
}
type World = Awaited<ReturnType<typeof makeWorld>>;

const RANDOM_UUID = "7b0c3f5e-9a1d-4c2e-8f3b-2d6a1e0c9b47";
/** Path segments that are not ids at all (already URL-encoded where that matters). */
const BAD_SEGMENTS = [
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "abc",
  "-1",
  "1e400",
  "00000000-0000-0000-0000-000000000000",
  "%E0%A4%A",
  "x".repeat(2000),
  "%27%20or%201%3D1--",
];

// The request bodies of the routes that take one: a valid body and the schema whose fields get mistyped.
// Every POST/PUT/PATCH route must be listed here (null: the route takes no body).
const ZOD_BODIES: Record<string, { schema: { shape: Record<string, unknown> }; valid: () => Record<string, unknown> }> =
  {
    "POST /api/auth/passkeys": {
      schema: registerPasskeySchema,
      valid: () => ({
        name: "Robust phone",
        response: {
          id: "AAAA",
          rawId: "AAAA",
          type: "public-key",
          response: { clientDataJSON: "e30", attestationObject: "oA" },
        },
      }),
    },
    "POST /api/auth/passkeys/sign-in": {
      schema: passkeySignInSchema,
      valid: () => ({
        response: {
          id: "AAAA",
          rawId: "AAAA",
          type: "public-key",
          response: { clientDataJSON: "e30", authenticatorData: "AA", signature: "AA" },
        },
      }),
    },
    "POST /api/push/subscriptions": {
      schema: pushSubscriptionSchema,
      valid: () => ({
        endpoint: "https://push.example.test/send/robust",
        keys: { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) },
      }),
    },
    "POST /api/auth/sign-up": {
      schema: signUpSchema,
      valid: () => ({ name: "Robust", email: `r${Math.random()}@example.test`, password: "a-long-enough-pass-9" }),
    },
    "POST /api/auth/sign-in": {
      schema: signInSchema,
      valid: () => ({ email: "nobody@example.test", password: "wrong-password" }),
    },
    "POST /api/auth/change-password": {
      schema: changePasswordSchema,
      valid: () => ({ currentPassword: "wrong-password", newPassword: "a-long-enough-pass-9" }),
    },
    "POST /api/auth/mfa/totp/enable": {
      schema: enableTotpSchema,
      valid: () => ({ code: "123456", password: "a password" }),
    },
    "POST /api/auth/mfa/verify": { schema: secondFactorSchema, valid: () => ({ code: "123456" }) },
    "POST /api/auth/mfa/recovery-codes": {
      schema: secondFactorChangeSchema,
      valid: () => ({ code: "123456", password: "a password" }),
    },
    "POST /api/auth/mfa/totp/disable": {
      schema: secondFactorChangeSchema,
      valid: () => ({ recoveryCode: "aaaaa-bbbbb", password: "a password" }),
    },
    "POST /api/projects/:id/owner": { schema: transferOwnershipSchema, valid: () => ({ userId: RANDOM_UUID }) },
    "POST /api/auth/forgot-password": { schema: forgotPasswordSchema, valid: () => ({ email: "nobody@example.test" }) },
    "POST /api/auth/reset-password": {
      schema: resetPasswordSchema,
      valid: () => ({ token: "t".repeat(43), password: "a long enough passphrase 42" }),
    },
    "POST /api/auth/reset-password/lookup": {
      schema: resetPasswordSchema.pick({ token: true }),
      valid: () => ({ token: "t".repeat(43) }),
    },
    "POST /api/auth/verify-email": {
      schema: verifyEmailSchema,
      valid: () => ({ token: "t".repeat(43) }),
    },
    "POST /api/invitations": {
      schema: createInvitationSchema,
      valid: () => ({ email: "invitee@example.test", role: "investor", projectIds: [] }),
    },
    "POST /api/invitations/lookup": { schema: acceptInvitationSchema, valid: () => ({ token: "t".repeat(43) }) },
    "POST /api/invitations/accept": {
      schema: acceptInvitationSchema,
      valid: () => ({ token: "t".repeat(43), name: "New Person", password: "a long enough passphrase 42" }),
    },
    "PATCH /api/me/profile": { schema: updateProfileSchema, valid: () => ({ name: "Renamed", organization: "Org" }) },
    "PUT /api/me/email-preferences": {
      schema: emailPreferencesSchema,
      valid: () => Object.fromEntries(Object.keys(emailPreferencesSchema.shape).map((k) => [k, "instant"])),
    },
    "POST /api/public-requests": {
      schema: publicRequestSchema,
      valid: () => ({ kind: "demo", email: "lead@example.test", name: "Lead" }),
    },
    "POST /api/projects": {
      schema: createProjectSchema,
      valid: () => ({ name: "P", description: "D", location: "L", totalCapital: 1000 }),
    },
    "PATCH /api/projects/:id": { schema: updateProjectSchema, valid: () => ({ name: "Renamed" }) },
    "POST /api/projects/:id/members": {
      schema: memberSchema,
      valid: () => ({ userId: RANDOM_UUID, role: "investor" }),
    },
    "POST /api/projects/:id/milestones": {
      schema: createMilestoneSchema,
      valid: () => ({
        title: "Robust",
        description: "A robust milestone.",
        dueDate: daysFromNow(5),
        capitalAmount: 10,
      }),
    },
    "PATCH /api/milestones/:id": { schema: updateMilestoneSchema, valid: () => ({ title: "Renamed" }) },
    "POST /api/milestones/:id/approve": { schema: approveSchema, valid: () => ({ comments: "ok" }) },
    "POST /api/milestones/:id/countersign": { schema: countersignSchema, valid: () => ({ comments: "ok" }) },
    "POST /api/milestones/:id/dispute": {
      schema: disputeSchema,
      valid: () => ({ statement: "Please review the invoices again." }),
    },
    "POST /api/milestones/:id/dispute/assign": {
      schema: assignDisputeSchema,
      valid: () => ({ verifierId: RANDOM_UUID }),
    },
    "PUT /api/projects/:id/lead-investor": { schema: leadInvestorSchema, valid: () => ({ userId: RANDOM_UUID }) },
    "PUT /api/projects/:id/release-policy": {
      schema: releasePolicySchema,
      valid: () => ({ requiredApprovals: 2, thresholds: [], distinctOrganizations: false, cosignAbove: null }),
    },
    "POST /api/milestones/:id/reject": { schema: rejectSchema, valid: () => ({ comments: "Missing receipts." }) },
    "POST /api/evidence/:id/flags/:code/dismiss": {
      schema: dismissFlagSchema,
      valid: () => ({ reason: "Taken by the site camera on the day." }),
    },
    "PUT /api/milestones/:id/checklist": {
      schema: checklistSchema,
      valid: () => Object.fromEntries(Object.keys(checklistSchema.shape).map((k) => [k, true])),
    },
    "POST /api/milestones/:id/report": { schema: reportSchema, valid: () => ({ comments: "Report." }) },
    "PATCH /api/users/:id": { schema: updateUserSchema, valid: () => ({ role: "investor" }) },
    "POST /api/releases/:id/settle": { schema: settleReleaseSchema, valid: () => ({ reference: "WIRE-1" }) },
    "POST /api/releases/:id/fail": { schema: failReleaseSchema, valid: () => ({ reason: "Account closed." }) },
    "POST /api/releases/:id/cancel": { schema: cancelReleaseSchema, valid: () => ({ reason: "Restructured." }) },
    "POST /api/api-tokens": {
      schema: createApiTokenSchema,
      valid: () => ({ name: "Custodian", scopes: ["releases:read"] }),
    },
    "POST /api/webhook-endpoints": {
      schema: createWebhookEndpointSchema,
      // A public documentation address: no DNS needed, and not one the SSRF check refuses.
      valid: () => ({ url: "https://203.0.113.10/hook", events: ["release.settled"], description: "Custodian" }),
    },
    // Every change to how one signs in types the password again, whatever the session has passed.
    "POST /api/auth/mfa/totp/setup": { schema: confirmPasswordSchema, valid: () => ({ password: "a password" }) },
    "POST /api/auth/passkeys/registration-options": {
      schema: confirmPasswordSchema,
      valid: () => ({ password: "a password" }),
    },
    "PATCH /api/webhook-endpoints/:id": {
      schema: updateWebhookEndpointSchema,
      valid: () => ({ description: "Renamed", enabled: false }),
    },
  };
const NO_BODY = new Set([
  "POST /api/invitations/:id/resend",
  "POST /api/users/:id/mfa/reset",
  "POST /api/me/email-verification",
  "PUT /api/me/avatar", // an image body: its type is checked before anything is read
  "POST /api/auth/sign-out",
  "POST /api/auth/sessions/sign-out-others",
  "POST /api/milestones/:id/start",
  "POST /api/milestones/:id/resubmit",
  "POST /api/milestones/:id/delay",
  "POST /api/notifications/read-all",
  "POST /api/notifications/:id/read",
  "POST /api/releases/:id/reinstruct",
  "POST /api/milestones/:id/evidence", // multipart: its own cases below
  "POST /api/webhook-endpoints/:id/rotate-secret",
  "POST /api/auth/passkeys/sign-in-options",
  "POST /api/auth/mfa/passkey-options",
  "POST /api/webhook-endpoints/:id/test",
  "POST /api/webhook-endpoints/:id/deliveries/:deliveryId/retry",
  "POST /api/webhook-endpoints/:id/deliveries/:deliveryId/replay",
]);

const LONG = "x".repeat(10_240);
/** Values of the wrong type (or of a hostile size) for any field. */
const HOSTILE_VALUES: unknown[] = [
  null,
  0,
  -1,
  1e308,
  -1e308,
  0.000001,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  "",
  " ",
  LONG,
  "\u0000",
  "a\u0000b",
  "\ud800",
  "__proto__",
  "2025-02-30",
  "9999-99-99",
  "0000-00-00",
  "NaN",
  "1e400",
  [],
  ["a"],
  {},
  { __proto__: null, toString: 1 },
];
/** Raw texts: not JSON, not an object, or numbers JSON.parse turns into Infinity. */
const RAW_BODIES = [
  "",
  "{",
  "{'a':1}",
  "[]",
  "[1,2,3]",
  "null",
  "true",
  "42",
  '"text"',
  "1e400",
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  `{"a":"${"y".repeat(300 * 1024)}"}`,
  "\u0000",
  "{}",
];

/** Bodies with one field of the route's schema replaced, numbers as raw JSON text (1e400, -0, 1e-400). */
function fieldBodies(spec: (typeof ZOD_BODIES)[string]): string[] {
  const bodies: string[] = [];
  const valid = spec.valid();
  for (const field of Object.keys(spec.schema.shape)) {
    for (const value of HOSTILE_VALUES) bodies.push(JSON.stringify({ ...valid, [field]: value }));
    for (const raw of ["1e400", "-1e400", "-0", "1e-400", "123456789012345678901234567890"]) {
      const rest = JSON.stringify({ ...valid, [field]: 0 });
      bodies.push(rest.replace(`"${field}":0`, `"${field}":${raw}`));
    }
  }
  bodies.push(JSON.stringify({ ...valid, unexpected: "field" }));
  bodies.push(JSON.stringify({ ...valid, __proto__: "x" }));
  return bodies;
}

const QUERIES = [
  "?status=__proto__",
  "?status=verified&status=pending",
  "?status[]=x",
  `?q=${"q".repeat(5000)}`,
  "?q=%00",
  "?q=%25%5F%5C",
  "?cursor=abc",
  "?cursor=99999999999999999999",
  "?cursor=2024-13-45T99:99:99.000000Z_7b0c3f5e-9a1d-4c2e-8f3b-2d6a1e0c9b47",
  "?cursor=2024-02-30T10:00:00.000000Z_7b0c3f5e-9a1d-4c2e-8f3b-2d6a1e0c9b47",
  "?limit=-1",
  "?limit=0",
  "?limit=1e400",
  "?limit=NaN",
  "?limit=99999999999999999999",
  "?before=99999999999999999999",
  "?before=1e30",
  "?before=-5",
  "?projectId=..%2F..",
  "?dueBefore=2025-02-30",
  "?dueBefore=9999-99-99",
  "?mine=yes&assigned=1",
  "?role=owner",
  "?role=verifier&role=investor",
  "?lastEventId=abc",
  "?lastEventId=99999999999999999999",
  "?__proto__=1&constructor=2",
  "?%E0%A4%A=1",
];

interface Call {
  method: string;
  path: string;
  as: TestUser | null;
  body?: RequestInit["body"];
  headers?: Record<string, string>;
}

const checked = { requests: 0 };

/** One request, checked: below 500, an error body on 4xx. An event stream is closed once it answers. */
async function expectSafe(call: Call): Promise<number> {
  const headers: Record<string, string> = { "x-forwarded-for": "198.51.100.7", ...call.headers };
  if (call.as) headers.cookie = call.as.cookie;
  const body = call.method === "GET" ? undefined : call.body;
  const res = await t.app.request(call.path, { method: call.method, headers, body });
  checked.requests++;
  const label = `${call.method} ${call.path.slice(0, 160)} as ${call.as?.role ?? "signed out"}`;
  if (res.headers.get("content-type")?.startsWith("text/event-stream")) {
    await res.body?.cancel();
    expect(res.status, label).toBe(200);
    return res.status;
  }
  const text = await res.text();
  expect(res.status, `${label} → ${text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    let body: { error?: { code?: unknown; message?: unknown } } | undefined;
    try {
      body = JSON.parse(text);
    } catch {}
    expect(typeof body?.error?.code, `${label}: error body ${text.slice(0, 200)}`).toBe("string");
    expect(typeof body?.error?.message, `${label}: error body ${text.slice(0, 200)}`).toBe("string");
  }
  return res.status;
}

const apiRoutes = () => {
  const seen = new Map<string, { method: string; path: string }>();
  for (const r of t.app.routes) {
    if (r.method === "ALL" || !r.path.startsWith("/api/") || r.path.includes("*")) continue;
    seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path });
  }
  return [...seen.values()];
};

/** The route's path with each :param filled from the world: visible, hidden, random or not an id. */
function fill(route: string, world: World, kind: "visible" | "hidden" | "random" | { raw: string }): string {
  return route.replace(/:(\w+)/g, (_, name: string) => {
    if (typeof kind === "object") return kind.raw;
    if (kind === "random") return RANDOM_UUID;
    const what =
      name === "userId"
        ? "user"
        : route.startsWith("/api/projects")
          ? "project"
          : route.startsWith("/api/milestones")
            ? "milestone"
            : route.startsWith("/api/evidence")
              ? "evidence"
              : route.startsWith("/api/notifications")
                ? "notification"
                : route.startsWith("/api/releases")
                  ? "release"
                  : route.startsWith("/api/api-tokens")
                    ? "apiToken"
                    : "user";
    return world.ids[what][kind];
  });
}

const json = { "content-type": "application/json" };

describe("every route, every role, hostile input", () => {
  it("lists the routes it checks, and knows the body of every route that takes one", () => {
    const routes = apiRoutes().map((r) => `${r.method} ${r.path}`);
    expect(routes.length).toBeGreaterThanOrEqual(40);
    for (const key of routes.filter((k) => /^(POST|PUT|PATCH) /.test(k))) {
      expect(key in ZOD_BODIES || NO_BODY.has(key), `${key} needs a body spec in robustness.pg.test.ts`).toBe(true);
    }
  });

  it("answers below 500 with an error body, for ids, bodies, queries and headers", async () => {
    for (const route of apiRoutes()) {
      const key = `${route.method} ${route.path}`;
      const world = await makeWorld();
      const callers: (TestUser | null)[] = [null, ...ROLES.map((r) => world.users[r])];
      const spec = ZOD_BODIES[key];
      const takesBody = spec !== undefined;
      const validBody = () => (spec ? JSON.stringify(spec.valid()) : undefined);
      const hasParams = route.path.includes(":");

      // Ids: visible, hidden, random and not-an-id, for every caller.
      const paths = hasParams
        ? [
            ...(["hidden", "random"] as const).map((k) => fill(route.path, world, k)),
            ...BAD_SEGMENTS.map((raw) => fill(route.path, world, { raw })),
            fill(route.path, world, "visible").toUpperCase().replace("/API/", "/api/"),
          ]
        : [];
      for (const as of callers) {
        // Signed out, every path answers 401 before the id is read: two ids are enough.
        for (const p of as ? paths : paths.slice(0, 2)) {
          await expectSafe({ method: route.method, path: p, as, body: validBody(), headers: takesBody ? json : {} });
        }
      }

      const visible = fill(route.path, world, "visible");
      // Queries (status, repeats, long values, cursors, limits, unknown keys) matter on reads; a write
      // route gets them once, as admin.
      const queryCallers = route.method === "GET" ? [world.users.admin, world.users.investor] : [world.users.admin];
      for (const as of queryCallers) {
        for (const q of QUERIES) {
          await expectSafe({
            method: route.method,
            path: visible + q,
            as,
            body: validBody(),
            headers: takesBody ? json : {},
          });
        }
      }

      // Bodies: raw texts, wrong content types, and every field of the schema mistyped.
      const bodies = [...RAW_BODIES, ...(spec ? fieldBodies(spec) : [])];
      for (const as of callers) {
        const calls: Call[] = [
          { method: route.method, path: visible, as, body: validBody(), headers: { "content-type": "text/plain" } },
          { method: route.method, path: visible, as, body: validBody(), headers: {} },
          {
            method: route.method,
            path: visible,
            as,
            body: validBody(),
            headers: { "content-type": "multipart/form-data; boundary=x" },
          },
          { method: route.method, path: visible, as, body: "", headers: json },
          { method: route.method, path: visible, as, body: "{}", headers: { "content-type": "application/json; x=" } },
        ];
        if (route.method !== "GET") {
          // Bodies are parsed before the service checks permission, so one caller who passes the route's
          // role check gets every field mistyped (the verifier for verification steps); the rest the raw texts.
          const decider = /\/(approve|reject|checklist|report)$/.test(route.path);
          const deep = as === (decider ? world.users.verifier : world.users.admin);
          const targets = deep ? bodies : RAW_BODIES;
          for (const body of targets) calls.push({ method: route.method, path: visible, as, body, headers: json });
        }
        for (const call of calls) await expectSafe(call);
      }
    }
  }, 300_000); // ~25 s on either database on an idle machine; minutes when the machine is busy

  it("survives hostile headers and cookies", async () => {
    const world = await makeWorld();
    const { verifier } = world.users;
    const milestone = world.ids.milestone.visible;
    const headerCases: Call[] = [
      ...["", " ", "x".repeat(201), "é", "a b", "\t", "key\u007f"].map((key) => ({
        method: "POST",
        path: `/api/milestones/${milestone}/approve`,
        as: verifier,
        headers: { "idempotency-key": key },
      })),
      ...["abc", "-1", "1e400", "99999999999999999999", "0"].map((id) => ({
        method: "GET",
        path: "/api/events",
        as: verifier,
        headers: { "last-event-id": id },
      })),
      ...[
        "tranche_session=",
        "tranche_session=%E0%A4%A",
        `tranche_session=${"a".repeat(5000)}`,
        "tranche_session=a; tranche_session=b",
        "=; ;;=",
      ].map((cookie) => ({ method: "GET", path: "/api/me", as: null, headers: { cookie } })),
      ...["", "not-an-ip", "1.2.3.4, 5.6.7.8", "x".repeat(5000), "::1", "[::1]:80"].map((xff) => ({
        method: "POST",
        path: "/api/auth/sign-in",
        as: null,
        body: '{"email":"a@example.test","password":"p"}',
        headers: { ...json, "x-forwarded-for": xff },
      })),
      { method: "GET", path: "/api/me", as: null, headers: { "x-request-id": "../../x\u00e9" } },
      ...[
        "Bearer",
        "Bearer ",
        "Bearer x y",
        `Bearer ${"t".repeat(5000)}`,
        "Bearer trk_\u00e9",
        "Basic a",
        "bearer trk_x",
      ].map((authorization) => ({ method: "GET", path: "/api/releases", as: null, headers: { authorization } })),
      {
        method: "POST",
        path: "/api/projects",
        as: world.users.admin,
        body: "{}",
        headers: { ...json, "content-length": "99999999999999999999" },
      },
    ];
    for (const call of headerCases) await expectSafe(call);
  });

  it("survives hostile multipart uploads", async () => {
    const world = await makeWorld();
    const path = `/api/milestones/${world.ids.milestone.visible}/evidence`;
    const part = (disposition: string, type = "text/plain", content = "hello") =>
      `--b\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${type}\r\n\r\n${content}\r\n--b--\r\n`;
    const bodies: { type: string; body: string }[] = [
      { type: "multipart/form-data", body: part('form-data; name="files"; filename="a.txt"') },
      { type: "multipart/form-data; boundary=", body: "" },
      { type: "multipart/form-data; boundary=b", body: "" },
      { type: "multipart/form-data; boundary=b", body: "--b\r\ngarbage" },
      { type: "multipart/form-data; boundary=b", body: part('form-data; name="files"') },
      { type: "multipart/form-data; boundary=b", body: part('form-data; name="files"; filename=""') },
      { type: "multipart/form-data; boundary=b", body: part('form-data; name="files"; filename="../../etc/passwd"') },
      { type: "multipart/form-data; boundary=b", body: part('form-data; name="files"; filename="a\\"b.txt"') },
      {
        type: "multipart/form-data; boundary=b",
        body: part("form-data; name=\"files\"; filename*=UTF-8''%E2%82%AC%00.txt"),
      },
      {
        type: "multipart/form-data; boundary=b",
        body: part("form-data; name=\"files\"; filename*=UTF-8''%ED%A0%80.txt"),
      },
      {
        type: "multipart/form-data; boundary=b",
        body: part('form-data; name="files"; filename="a.txt"', "text/html\r\nX-A: b"),
      },
      { type: "multipart/form-data; boundary=b", body: part('form-data; name="files"; filename="a.txt"', "") },
      {
        type: "multipart/form-data; boundary=b",
        body: part('form-data; name="files"; filename="a.txt"', "not a type"),
      },
      { type: "multipart/form-data; boundary=b", body: part('form-data; name="x"', "text/plain", LONG) },
      { type: "application/json", body: "{}" },
    ];
    for (const as of [null, world.users.project_owner, world.users.verifier, world.users.investor]) {
      for (const { type, body } of bodies) {
        await expectSafe({ method: "POST", path, as, body, headers: { "content-type": type } });
      }
    }
    // Whatever was stored can be listed and downloaded.
    const list = await t.request("GET", path, { as: world.users.project_owner });
    for (const item of list.body.items as { id: string }[]) {
      await expectSafe({ method: "GET", path: `/api/evidence/${item.id}`, as: world.users.project_owner });
    }
  });

  it("property: random JSON values for every field of every body route never cause a 5xx", async () => {
    const world = await makeWorld();
    const routes = apiRoutes().filter((r) => ZOD_BODIES[`${r.method} ${r.path}`]);
    const value = fc.oneof(
      fc.constantFrom(...HOSTILE_VALUES),
      fc.string({ maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      fc.json(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom(...ROLES),
        fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 3 }),
        fc.boolean(),
        async (route, role, extra, keepValid) => {
          const spec = ZOD_BODIES[`${route.method} ${route.path}`];
          const fields = Object.keys(spec.schema.shape);
          // Mostly the route's own fields with random values; sometimes unknown keys on a valid body.
          const mistyped = Object.fromEntries(
            Object.entries(extra).map(([k, v], i) => [fields[i % fields.length] ?? k, v]),
          );
          const body = keepValid ? { ...spec.valid(), ...extra } : { ...spec.valid(), ...mistyped };
          await expectSafe({
            method: route.method,
            path: fill(route.path, world, "visible"),
            as: world.users[role],
            body: JSON.stringify(body),
            headers: json,
          });
        },
      ),
      { numRuns: 300, seed: 20250601, endOnFailure: true },
    );
  }, 120_000);

  it("checked a meaningful number of requests", () => {
    expect(checked.requests).toBeGreaterThan(5000);
  });
});
