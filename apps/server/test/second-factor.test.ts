// Second factor (TOTP, recovery codes), the actions it protects, and its 12-hour window. Sessions made by the
// harness have passed it; the ones here are opened without it on purpose (`secondFactor: false`).
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  disbursements,
  mfaRecoveryCodes,
  mfaTotp,
  milestones,
  passkeys,
  projectMembers,
  sessions,
  users,
} from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import {
  createTestApp,
  expectPasswordAsked,
  givePassword,
  TEST_PASSWORD,
  type TestApp,
  type TestUser,
} from "./harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const step = () => Math.floor(Date.now() / 30_000);
/** The app's code for a time step (the server accepts the current step and one either side, each once). */
const codeAt = (secret: string, at: number) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(at), 6);

/** Sets up an authenticator app for `user` through the API; returns its secret and recovery codes. */
async function enroll(user: TestUser) {
  const password = await givePassword(t, user);
  const setup = await t.request("POST", "/api/auth/mfa/totp/setup", { as: user, body: { password } });
  expect(setup.status).toBe(200);
  const enabled = await t.request("POST", "/api/auth/mfa/totp/enable", {
    as: user,
    body: { code: codeAt(setup.body.secret, step()), password },
  });
  expect(enabled.status).toBe(200);
  return { secret: setup.body.secret as string, recoveryCodes: enabled.body.recoveryCodes as string[] };
}

const audited = async (entityId: string, action: string) =>
  t.deps.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, entityId), eq(auditEvents.action, action)));

describe("actions on money and access ask for the second factor", () => {
  it("answers 403 mfa_required on each protected action and changes nothing", async () => {
    const admin = await t.user("admin", { secondFactor: false });
    const verifier = await t.user("verifier", { secondFactor: false });
    const owner = await t.user("project_owner");
    const investor = await t.user("investor");
    const project = await makeProject(t, { owner, verifiers: [verifier], investors: [investor] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const otherOwner = await t.user("project_owner");
    const id = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";

    const attempts: [TestUser, string, string, unknown][] = [
      [verifier, "POST", `/api/milestones/${milestone.id}/approve`, {}],
      [verifier, "POST", `/api/milestones/${milestone.id}/reject`, { comments: "Missing evidence." }],
      [admin, "POST", `/api/projects/${project.id}/members`, { userId: investor.id, role: "investor" }],
      [admin, "DELETE", `/api/projects/${project.id}/members/${verifier.id}?role=verifier`, undefined],
      [admin, "PATCH", `/api/users/${investor.id}`, { role: "verifier" }],
      [admin, "POST", `/api/users/${verifier.id}/mfa/reset`, undefined],
      [admin, "POST", `/api/projects/${project.id}/owner`, { userId: otherOwner.id }],
      [admin, "POST", "/api/webhook-endpoints", { url: "https://custodian.example/hook", events: ["release.settled"] }],
      [admin, "DELETE", `/api/webhook-endpoints/${id}`, undefined],
      [admin, "POST", "/api/api-tokens", { name: "Custodian", scopes: ["releases:read"] }],
      [admin, "DELETE", `/api/api-tokens/${id}`, undefined],
      [admin, "POST", `/api/releases/${id}/reinstruct`, undefined],
      [admin, "POST", `/api/releases/${id}/cancel`, { reason: "Wrong account" }],
      [admin, "PUT", `/api/projects/${project.id}/release-policy`, { requiredApprovals: 2 }],
      [admin, "PUT", `/api/projects/${project.id}/lead-investor`, { userId: investor.id }],
      [admin, "POST", `/api/milestones/${milestone.id}/dispute/assign`, { verifierId: verifier.id }],
    ];
    for (const [as, method, path, body] of attempts) {
      const res = await t.request(method, path, { as, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error, `${method} ${path}`).toMatchObject({ code: "mfa_required", details: { enrolled: false } });
    }
    const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, milestone.id));
    expect(row.status).toBe("in_verification");
    expect(await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id))).toEqual([]);
    const [investorRow] = await t.deps.db.select({ role: users.role }).from(users).where(eq(users.id, investor.id));
    expect(investorRow.role).toBe("investor");
    const team = await t.deps.db.select().from(projectMembers).where(eq(projectMembers.projectId, project.id));
    expect(team).toHaveLength(3);
  });

  it("lets roles outside MFA_REQUIRED_ROLES act without it, and asks an enrolled verifier for a code", async () => {
    const owner = await t.user("project_owner", { secondFactor: false });
    const created = await t.request("POST", "/api/projects", {
      as: owner,
      body: {
        name: "No second factor needed",
        description: "Owners are not in MFA_REQUIRED_ROLES by default.",
        totalCapital: 1000,
        location: "Lisbon",
        startDate: "2026-01-01",
        endDate: "2027-01-01",
        currency: "EUR",
      },
    });
    expect(created.status).toBe(201);

    const verifier = await t.user("verifier", { secondFactor: false });
    const project = await makeProject(t, { owner: await t.user("project_owner"), verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    // Enrolling passes the second factor in the session that enrolled; a new session has not passed it.
    const { secret } = await enroll(verifier);
    await t.deps.db.update(sessions).set({ mfaVerifiedAt: null }).where(eq(sessions.userId, verifier.id));
    const refused = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier });
    expect(refused.body.error).toMatchObject({ code: "mfa_required", details: { enrolled: true } });

    const passed = await t.request("POST", "/api/auth/mfa/verify", {
      as: verifier,
      body: { code: codeAt(secret, step() + 1) },
    });
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({ enrolled: true, required: true, recoveryCodesLeft: 10 });
    expect(new Date(passed.body.validUntil).getTime() - Date.now()).toBeGreaterThan(11.9 * 3_600_000);
    const approved = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier });
    expect(approved.status).toBe(200);
  });

  it("checks the request before asking for the code: a partial approval without a reason is a 400, not mfa_required", async () => {
    const verifier = await t.user("verifier", { secondFactor: false });
    const investor = await t.user("investor", { secondFactor: false });
    const admin = await t.user("admin", { secondFactor: false });
    const project = await makeProject(t, { owner: await t.user("project_owner"), verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    const path = (action: string) => `/api/milestones/${milestone.id}/${action}`;
    const invalid: [TestUser, string, unknown, string][] = [
      [verifier, path("approve"), { share: 60 }, "comments"],
      [verifier, path("approve"), { share: 0 }, "share"],
      [verifier, path("reject"), { comments: " " }, "comments"],
      [investor, path("countersign"), { comments: "x".repeat(5001) }, "comments"],
      [admin, path("dispute/assign"), { verifierId: "not-an-id" }, "verifierId"],
    ];
    for (const [as, url, body, field] of invalid) {
      const res = await t.request("POST", url, { as, body });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe("invalid_input");
      expect(res.body.error.details[field], url).toBeTruthy();
    }
    // A valid request is then asked for the second factor, and nothing changed before it.
    const valid = await t.request("POST", path("approve"), {
      as: verifier,
      body: { share: 60, comments: "Only the first half was delivered." },
    });
    expect(valid.body.error).toMatchObject({ code: "mfa_required", details: { enrolled: false } });
    const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, milestone.id));
    expect(row.status).toBe("in_verification");
    expect(await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id))).toEqual([]);
  });

  it("counts for 12 hours: a session that passed it 13 hours ago is asked again", async () => {
    const admin = await t.user("admin");
    const target = await t.user("investor");
    await t.deps.db
      .update(sessions)
      .set({ mfaVerifiedAt: sql`now() - interval '13 hours'` })
      .where(eq(sessions.userId, admin.id));
    const res = await t.request("PATCH", `/api/users/${target.id}`, { as: admin, body: { role: "verifier" } });
    expect(res.body.error.code).toBe("mfa_required");
    await t.deps.db
      .update(sessions)
      .set({ mfaVerifiedAt: sql`now() - interval '11 hours'` })
      .where(eq(sessions.userId, admin.id));
    expect(
      (await t.request("PATCH", `/api/users/${target.id}`, { as: admin, body: { role: "verifier" } })).status,
    ).toBe(200);
  });
});

describe("enrolment and codes", () => {
  it("sets up TOTP with a QR code, refuses a wrong code, stores the secret sealed and the recovery codes hashed", async () => {
    const user = await t.user("verifier", { secondFactor: false });
    const before = await t.request("GET", "/api/auth/mfa", { as: user });
    expect(before.body).toEqual({
      enrolled: false,
      totp: false,
      passkeys: 0,
      required: true,
      validUntil: null,
      recoveryCodesLeft: 0,
    });

    const password = await givePassword(t, user);
    const setup = await t.request("POST", "/api/auth/mfa/totp/setup", { as: user, body: { password } });
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Tranche:.*secret=/);
    expect(setup.body.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const [stored] = await t.deps.db.select().from(mfaTotp).where(eq(mfaTotp.userId, user.id));
    expect(stored.secretSealed).not.toContain(setup.body.secret);
    expect(stored.enabledAt).toBeNull();

    const wrong = await t.request("POST", "/api/auth/mfa/totp/enable", {
      as: user,
      body: { code: "000000", password },
    });
    const bad = await t.request("POST", "/api/auth/mfa/totp/enable", { as: user, body: { code: "12ab", password } });
    expect([wrong.status, bad.status]).toEqual([400, 400]);
    expect(bad.body.error.details.code).toBe("Enter the 6-digit code from your authenticator app.");
    const now = codeAt(setup.body.secret, step());
    const enabled = await t.request("POST", "/api/auth/mfa/totp/enable", { as: user, body: { code: now, password } });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.body.recoveryCodes).size).toBe(10);
    expect(enabled.body.recoveryCodes[0]).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const hashes = await t.deps.db.execute(sql`select code_hash from mfa_recovery_codes where user_id = ${user.id}`);
    expect(JSON.stringify(hashes)).not.toContain(enabled.body.recoveryCodes[0].replace("-", ""));
    expect(await audited(user.id, "user.mfa_enabled")).toHaveLength(1);

    // A code is good once: the one that enabled it cannot pass it again.
    const replay = await t.request("POST", "/api/auth/mfa/verify", { as: user, body: { code: now } });
    expect(replay.status).toBe(400);
    expect((await t.request("POST", "/api/auth/mfa/totp/setup", { as: user, body: { password } })).status).toBe(409);
  });

  it("uses each recovery code once, and replacing them ends the old ones", async () => {
    const user = await t.user("admin", { secondFactor: false });
    const { secret, recoveryCodes } = await enroll(user);
    const password = TEST_PASSWORD;
    const first = await t.request("POST", "/api/auth/mfa/verify", {
      as: user,
      body: { recoveryCode: recoveryCodes[0].toUpperCase() },
    });
    expect(first.status).toBe(200);
    expect(first.body.recoveryCodesLeft).toBe(9);
    expect(await audited(user.id, "user.mfa_recovery_code_used")).toHaveLength(1);
    const again = await t.request("POST", "/api/auth/mfa/verify", {
      as: user,
      body: { recoveryCode: recoveryCodes[0] },
    });
    expect(again.status).toBe(400);
    expect(again.body.error.details.recoveryCode).toBe("That recovery code is not valid or has been used.");

    const replaced = await t.request("POST", "/api/auth/mfa/recovery-codes", {
      as: user,
      body: { code: codeAt(secret, step() + 1), password },
    });
    expect(replaced.body.recoveryCodes).toHaveLength(10);
    const old = await t.request("POST", "/api/auth/mfa/verify", { as: user, body: { recoveryCode: recoveryCodes[1] } });
    expect(old.status).toBe(400);
    const fresh = await t.request("POST", "/api/auth/mfa/verify", {
      as: user,
      body: { recoveryCode: replaced.body.recoveryCodes[1] },
    });
    expect(fresh.status).toBe(200);

    const off = await t.request("POST", "/api/auth/mfa/totp/disable", {
      as: user,
      body: { recoveryCode: replaced.body.recoveryCodes[2], password },
    });
    expect(off.status).toBe(204);
    const status = await t.request("GET", "/api/auth/mfa", { as: user });
    expect(status.body).toMatchObject({ enrolled: false, validUntil: null, recoveryCodesLeft: 0 });
  });

  it("counts wrong codes per (account, IP): five block that IP, and never the right code from another IP", async () => {
    const user = await t.user("verifier", { secondFactor: false });
    const { secret } = await enroll(user);
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    for (let i = 0; i < 5; i++) {
      const res = await t.request("POST", "/api/auth/mfa/verify", {
        as: user,
        body: { code: "000000" },
        headers: from("203.0.113.9"),
      });
      expect(res.status).toBe(400);
    }
    const blocked = await t.request("POST", "/api/auth/mfa/verify", {
      as: user,
      body: { code: codeAt(secret, step() + 1) },
      headers: from("203.0.113.9"),
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Failures from many other IPs past the account's ceiling (50) do not stop the person with the code.
    for (let i = 0; i < 50; i++) {
      await t.request("POST", "/api/auth/mfa/verify", {
        as: user,
        body: { code: "000000" },
        headers: from(`192.0.2.${i % 10}`),
      });
    }
    const right = await t.request("POST", "/api/auth/mfa/verify", {
      as: user,
      body: { code: codeAt(secret, step() + 1) },
      headers: from("198.51.100.200"),
    });
    expect(right.status).toBe(200);
    // …while an IP that failed itself is stopped by the ceiling.
    const failedBefore = await t.request("POST", "/api/auth/mfa/verify", {
      as: user,
      body: { recoveryCode: "aaaaa-aaaaa" },
      headers: from("192.0.2.1"),
    });
    expect(failedBefore.status).toBe(429);
  });
});

describe("changing the second factor needs the password typed again, even minutes after passing it", () => {
  // A session alone (a copied cookie, a script in the page, an unlocked laptop) within the 12 hours must not turn the
  // app off, replace the recovery codes, or set up an app of its own. Each session here passed the second factor.
  const appOf = async (user: TestUser) => {
    const [row] = await t.deps.db.select().from(mfaTotp).where(eq(mfaTotp.userId, user.id));
    return row ? { secretSealed: row.secretSealed, on: row.enabledAt !== null } : null;
  };
  const codesOf = async (user: TestUser) =>
    (await t.deps.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id)))
      .map((row) => `${row.codeHash}:${row.usedAt !== null}`)
      .sort();

  it("setting up the app, beside a passkey", async () => {
    const user = await t.user("verifier");
    await t.deps.db.insert(passkeys).values({
      userId: user.id,
      credentialId: `cred-${user.id}`,
      publicKey: "pk",
      counter: 0,
      deviceName: "Laptop",
      deviceType: "singleDevice",
      backedUp: false,
    });
    const setup = (password: string | undefined, headers: Record<string, string>) =>
      t.request("POST", "/api/auth/mfa/totp/setup", { as: user, headers, body: password ? { password } : {} });
    await expectPasswordAsked(t, user, setup);
    expect(await appOf(user)).toBeNull();
    expect((await setup(TEST_PASSWORD, {})).status).toBe(200);
  });

  it("turning the app on", async () => {
    const user = await t.user("verifier");
    const password = await givePassword(t, user);
    const { secret } = (await t.request("POST", "/api/auth/mfa/totp/setup", { as: user, body: { password } })).body;
    const before = await appOf(user);
    const enable = (password: string | undefined, headers: Record<string, string>) =>
      t.request("POST", "/api/auth/mfa/totp/enable", {
        as: user,
        headers,
        body: { code: codeAt(secret, step()), password },
      });
    await expectPasswordAsked(t, user, enable);
    expect(await appOf(user)).toEqual(before);
    expect(await codesOf(user)).toEqual([]);
    expect((await enable(TEST_PASSWORD, {})).status).toBe(200);
    expect(await appOf(user)).toMatchObject({ on: true });
  });

  it("replacing the recovery codes: a wrong password uses up no code", async () => {
    const user = await t.user("admin", { secondFactor: false });
    const { recoveryCodes } = await enroll(user);
    const before = await codesOf(user);
    const replace = (password: string | undefined, headers: Record<string, string>) =>
      t.request("POST", "/api/auth/mfa/recovery-codes", {
        as: user,
        headers,
        body: { recoveryCode: recoveryCodes[0], password },
      });
    await expectPasswordAsked(t, user, replace);
    expect(await codesOf(user)).toEqual(before);
    expect(await audited(user.id, "user.mfa_recovery_codes_replaced")).toEqual([]);
    const replaced = await replace(TEST_PASSWORD, {});
    expect(replaced.status).toBe(200);
    expect(replaced.body.recoveryCodes).toHaveLength(10);
  });

  it("turning the app off: a wrong password uses up no code, and the app stays on", async () => {
    const user = await t.user("admin", { secondFactor: false });
    const { recoveryCodes } = await enroll(user);
    const [app, codes] = [await appOf(user), await codesOf(user)];
    const disable = (password: string | undefined, headers: Record<string, string>) =>
      t.request("POST", "/api/auth/mfa/totp/disable", {
        as: user,
        headers,
        body: { recoveryCode: recoveryCodes[0], password },
      });
    await expectPasswordAsked(t, user, disable);
    expect([await appOf(user), await codesOf(user)]).toEqual([app, codes]);
    expect(await audited(user.id, "user.mfa_disabled")).toEqual([]);
    expect((await disable(TEST_PASSWORD, {})).status).toBe(204);
    expect(await appOf(user)).toBeNull();
  });
});

describe("the demo's exemption", () => {
  it("lets only the seeded demo accounts act without a second factor, not any address at the demo's domain", async () => {
    const demo = await createTestApp({ DEMO_DATA: "true" });
    try {
      const seeded = await demo.user("verifier", { email: "verifier@tranche.demo", secondFactor: false });
      const lookalike = await demo.user("verifier", { email: "mallory@tranche.demo", secondFactor: false });
      const owner = await demo.user("project_owner");
      const project = await makeProject(demo, { owner, verifiers: [seeded, lookalike] });
      for (const [verifier, status] of [
        [lookalike, 403],
        [seeded, 200],
      ] as const) {
        const milestone = await makeMilestone(demo, project, { status: "in_verification", verifier });
        const res = await demo.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier, body: {} });
        expect(res.status).toBe(status);
      }
    } finally {
      await demo.close();
    }
  });

  it("tells a seeded demo account that no second factor is asked of it, until it sets one up", async () => {
    const demo = await createTestApp({ DEMO_DATA: "true" });
    try {
      const seeded = await demo.user("verifier", { email: "verifier@tranche.demo", secondFactor: false });
      const lookalike = await demo.user("verifier", { email: "mallory@tranche.demo", secondFactor: false });
      // The status the web app reads to warn "you have none set up yet" says what approving will actually ask.
      const status = async (as: typeof seeded) => (await demo.request("GET", "/api/auth/mfa", { as })).body;
      expect(await status(seeded)).toMatchObject({ enrolled: false, required: false });
      expect(await status(lookalike)).toMatchObject({ enrolled: false, required: true });
      const password = await givePassword(demo, seeded);
      const setup = await demo.request("POST", "/api/auth/mfa/totp/setup", { as: seeded, body: { password } });
      const code = codeAt(setup.body.secret, step());
      const enabled = await demo.request("POST", "/api/auth/mfa/totp/enable", { as: seeded, body: { code, password } });
      expect(enabled.status).toBe(200);
      expect(await status(seeded)).toMatchObject({ enrolled: true, required: true });
    } finally {
      await demo.close();
    }
  });
});
