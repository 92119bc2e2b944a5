// Passkeys end to end against the real app and database, with a software authenticator that builds what a browser
// sends (P-256 keys, CBOR, signatures): registering one, signing in with one, passing the second factor with one,
// and revoking one. User verification is required everywhere; challenges are single-use and short-lived.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditEvents,
  disbursements,
  mfaTotp,
  milestones,
  passkeys,
  sessions,
  webauthnChallenges,
} from "../src/db/schema";
import { makeMilestone, makeProject } from "./factories";
import {
  cookieFrom,
  createTestApp,
  expectPasswordAsked,
  givePassword,
  TEST_PASSWORD,
  type TestApp,
  type TestUser,
} from "./harness";
import { type SoftwareCredential, softwareAuthenticator } from "./software-authenticator";

let t: TestApp;
let device: ReturnType<typeof softwareAuthenticator>;
beforeAll(async () => {
  t = await createTestApp();
  device = softwareAuthenticator(t.deps.env.PUBLIC_URL);
});
afterAll(() => t.close());

/**
 * Registers a passkey for `user` (whose session has passed the second factor, or has none set up: then the password
 * is typed again).
 */
async function register(user: TestUser, name = "Work phone"): Promise<SoftwareCredential> {
  const password = await givePassword(t, user);
  const options = await t.request("POST", "/api/auth/passkeys/registration-options", { as: user, body: { password } });
  expect(options.status).toBe(200);
  const { credential, response } = device.create(options.body);
  const created = await t.request("POST", "/api/auth/passkeys", { as: user, body: { name, response } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return credential;
}

const audited = (userId: string, action: string) =>
  t.deps.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, userId), eq(auditEvents.action, action)));

const forgetSecondFactor = (user: TestUser) =>
  t.deps.db.update(sessions).set({ mfaVerifiedAt: null }).where(eq(sessions.userId, user.id));

describe("registering a passkey (Account → Security)", () => {
  it("keeps the passkey with its device name, lists it, audits it, and counts as a second factor", async () => {
    const verifier = await t.user("verifier", { secondFactor: false });
    const before = await t.request("GET", "/api/auth/mfa", { as: verifier });
    expect(before.body).toMatchObject({ enrolled: false, totp: false, passkeys: 0 });

    // A session that has passed no second factor sets up the first one only with the password typed again.
    const bare = await t.request("POST", "/api/auth/passkeys/registration-options", { as: verifier });
    expect(bare.status).toBe(400);
    expect(bare.body.error.details.password).toBe("Enter your password.");
    const password = await givePassword(t, verifier);
    const wrong = await t.request("POST", "/api/auth/passkeys/registration-options", {
      as: verifier,
      body: { password: "not the password" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.password).toBe("That password is not correct.");
    expect(await t.deps.db.select().from(webauthnChallenges).where(eq(webauthnChallenges.userId, verifier.id))).toEqual(
      [],
    );
    const options = await t.request("POST", "/api/auth/passkeys/registration-options", {
      as: verifier,
      body: { password },
    });
    expect(options.body.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    expect(options.body.rp).toEqual({ name: "Tranche", id: "localhost" });
    const { response } = device.create(options.body);
    const created = await t.request("POST", "/api/auth/passkeys", {
      as: verifier,
      body: { name: "  Maria's phone  ", response },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ deviceName: "Maria's phone", lastUsedAt: null, synced: false });

    const list = await t.request("GET", "/api/auth/passkeys", { as: verifier });
    expect(list.body.items).toEqual([created.body]);
    expect(await audited(verifier.id, "user.passkey_added")).toHaveLength(1);
    // A person with a passkey and no authenticator app has a second factor; creating it verified them.
    const after = await t.request("GET", "/api/auth/mfa", { as: verifier });
    expect(after.body).toMatchObject({ enrolled: true, totp: false, passkeys: 1, recoveryCodesLeft: 0 });
    expect(after.body.validUntil).not.toBeNull();
  });

  it("is never set up as the first factor by a session alone (a copied cookie): the password is typed again", async () => {
    // A passkey set up on a session alone would sign in without the password, outlive a password change and, as the
    // account's only factor, could not be revoked by its owner (revoking needs the second factor passed).
    const owner = await t.user("project_owner", { secondFactor: false });
    const copied = await t.request("POST", "/api/auth/passkeys/registration-options", { as: owner });
    expect(copied.status).toBe(400);
    const app = await t.request("POST", "/api/auth/mfa/totp/setup", { as: owner, body: {} });
    expect(app.status).toBe(400);
    expect(app.body.error.details.password).toBe("Enter your password.");
    // Wrong passwords count as failed sign-ins: a session cannot be used to guess the password.
    await givePassword(t, owner);
    const limit = t.deps.env.SIGNIN_FAILURES_PER_ACCOUNT_IP;
    for (let i = 0; i < limit; i++) {
      const guess = await t.request("POST", "/api/auth/mfa/totp/setup", {
        as: owner,
        body: { password: `guess ${i}` },
      });
      expect(guess.status).toBe(400);
    }
    const stopped = await t.request("POST", "/api/auth/passkeys/registration-options", {
      as: owner,
      body: { password: TEST_PASSWORD },
    });
    expect(stopped.status).toBe(429);
    expect(await t.deps.db.select().from(mfaTotp).where(eq(mfaTotp.userId, owner.id))).toEqual([]);
  });

  it("refuses a passkey created without user verification, and a registration answered twice", async () => {
    const owner = await t.user("project_owner");
    const password = await givePassword(t, owner);
    const options = await t.request("POST", "/api/auth/passkeys/registration-options", {
      as: owner,
      body: { password },
    });
    const noUv = device.create(options.body, { uv: false });
    const refused = await t.request("POST", "/api/auth/passkeys", {
      as: owner,
      body: { name: "Old key", response: noUv.response },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.response).toMatch(/user could not be verified/i);
    // The refused answer used its challenge up: the same challenge with a good answer is refused too.
    const again = device.create(options.body);
    const replay = await t.request("POST", "/api/auth/passkeys", {
      as: owner,
      body: { name: "Old key", response: again.response },
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error.details.passkey).toBe("This passkey request has expired or was already used.");
    expect(await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, owner.id))).toEqual([]);
  });

  it("refuses an answer to another person's challenge, an expired challenge, and a bad name", async () => {
    const [a, b] = [await t.user("investor"), await t.user("investor")];
    const body = { password: await givePassword(t, a) };
    await givePassword(t, b);
    const forA = await t.request("POST", "/api/auth/passkeys/registration-options", { as: a, body });
    const stolen = await t.request("POST", "/api/auth/passkeys", {
      as: b,
      body: { name: "Laptop", response: device.create(forA.body).response },
    });
    expect(stolen.status).toBe(400);

    const forB = await t.request("POST", "/api/auth/passkeys/registration-options", { as: b, body });
    await t.deps.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, forB.body.challenge));
    const late = await t.request("POST", "/api/auth/passkeys", {
      as: b,
      body: { name: "Laptop", response: device.create(forB.body).response },
    });
    expect(late.status).toBe(400);
    expect(late.body.error.message).toMatch(/expired or was already used/);

    const fresh = await t.request("POST", "/api/auth/passkeys/registration-options", { as: b, body });
    const unnamed = await t.request("POST", "/api/auth/passkeys", {
      as: b,
      body: { name: " ", response: device.create(fresh.body).response },
    });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error.details.name).toBe("Name this passkey, e.g. “Work laptop”.");
  });

  it("once a second factor is set up, adding another passkey needs a session that passed it", async () => {
    const admin = await t.user("admin");
    await register(admin, "Laptop");
    await forgetSecondFactor(admin);
    const refused = await t.request("POST", "/api/auth/passkeys/registration-options", {
      as: admin,
      body: { password: TEST_PASSWORD },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "mfa_required", details: { enrolled: true } });
  });

  it("nor can a password alone add an authenticator app beside the passkey, and pass the second factor with it", async () => {
    const admin = await t.user("admin");
    await register(admin, "Laptop");
    await forgetSecondFactor(admin);
    const body = { password: TEST_PASSWORD };
    const setup = await t.request("POST", "/api/auth/mfa/totp/setup", { as: admin, body });
    expect(setup.status).toBe(403);
    expect(setup.body.error).toMatchObject({ code: "mfa_required", details: { enrolled: true } });
    // A set-up begun while the session had passed it is not finished by one that has not.
    const [session] = await t.deps.db.select().from(sessions).where(eq(sessions.userId, admin.id));
    await t.deps.db.update(sessions).set({ mfaVerifiedAt: new Date() }).where(eq(sessions.id, session.id));
    expect((await t.request("POST", "/api/auth/mfa/totp/setup", { as: admin, body })).status).toBe(200);
    await forgetSecondFactor(admin);
    const enable = await t.request("POST", "/api/auth/mfa/totp/enable", {
      as: admin,
      body: { code: "123456", ...body },
    });
    expect(enable.status).toBe(403);
    expect(enable.body.error.code).toBe("mfa_required");
    const tokens = await t.request("POST", "/api/api-tokens", {
      as: admin,
      body: { name: "Custodian", scopes: ["releases:write"] },
    });
    expect(tokens.status).toBe(403);
  });
});

describe("signing in with a passkey", () => {
  it("signs in with a discoverable passkey (no email), with the second factor passed; the passkey's last use is kept", async () => {
    const verifier = await t.user("verifier");
    const credential = await register(verifier);
    const options = await t.request("POST", "/api/auth/passkeys/sign-in-options", { as: null });
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({ userVerification: "required", allowCredentials: [], rpId: "localhost" });
    const response = device.get(credential, options.body);
    const signedIn = await t.request("POST", "/api/auth/passkeys/sign-in", { as: null, body: { response } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: verifier.id, email: verifier.email });
    const session = { ...verifier, cookie: cookieFrom(signedIn.headers) };
    const status = await t.request("GET", "/api/auth/mfa", { as: session });
    expect(status.body.validUntil).not.toBeNull();
    const [row] = await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, verifier.id));
    expect(row.lastUsedAt).not.toBeNull();
    expect(row.counter).toBe(1);

    // The same answer again (a replayed request): its challenge is gone.
    const replay = await t.request("POST", "/api/auth/passkeys/sign-in", { as: null, body: { response } });
    expect(replay.status).toBe(400);
    expect(replay.headers.get("set-cookie")).toBeNull();
  });

  it("refuses an assertion without user verification, and one signed by another key", async () => {
    const investor = await t.user("investor");
    const credential = await register(investor);
    const options = await t.request("POST", "/api/auth/passkeys/sign-in-options", { as: null });
    const noUv = await t.request("POST", "/api/auth/passkeys/sign-in", {
      as: null,
      body: { response: device.get(credential, options.body, { uv: false }) },
    });
    expect(noUv.status).toBe(401);
    expect(noUv.body.error.message).toMatch(/user could not be verified/i);
    expect(noUv.headers.get("set-cookie")).toBeNull();

    const forged = device.create({ challenge: "x", rp: {}, user: { id: "x" } }).credential;
    forged.id = credential.id;
    forged.userHandle = credential.userHandle;
    const next = await t.request("POST", "/api/auth/passkeys/sign-in-options", { as: null });
    const bad = await t.request("POST", "/api/auth/passkeys/sign-in", {
      as: null,
      body: { response: device.get(forged, next.body) },
    });
    expect(bad.status).toBe(401);
    expect(bad.body.error.message).toMatch(/could not be verified/);
  });

  it("refuses malformed answers with 400 and field messages", async () => {
    const res = await t.request("POST", "/api/auth/passkeys/sign-in", {
      as: null,
      body: { response: { id: "not base64url!", type: "password" } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_input");
  });
});

describe("a passkey as the second factor", () => {
  it("passes the second factor for an approval like a code would; without user verification it is refused", async () => {
    const verifier = await t.user("verifier", { secondFactor: false });
    const credential = await register(verifier);
    const project = await makeProject(t, { owner: await t.user("project_owner"), verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier });
    await forgetSecondFactor(verifier);

    const refused = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "mfa_required", details: { enrolled: true } });

    const options = await t.request("POST", "/api/auth/mfa/passkey-options", { as: verifier });
    expect(options.body.allowCredentials).toEqual([
      { id: credential.id.toString("base64url"), type: "public-key", transports: ["internal"] },
    ]);
    const noUv = await t.request("POST", "/api/auth/mfa/verify", {
      as: verifier,
      body: { passkey: device.get(credential, options.body, { uv: false }) },
    });
    expect(noUv.status).toBe(400);
    expect(noUv.body.error.details.passkey).toMatch(/user could not be verified/i);
    const stillRefused = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier });
    expect(stillRefused.status).toBe(403);

    const fresh = await t.request("POST", "/api/auth/mfa/passkey-options", { as: verifier });
    const passkey = device.get(credential, fresh.body);
    const passed = await t.request("POST", "/api/auth/mfa/verify", { as: verifier, body: { passkey } });
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({ enrolled: true, passkeys: 1 });
    const approved = await t.request("POST", `/api/milestones/${milestone.id}/approve`, { as: verifier });
    expect(approved.status).toBe(200);
    const [row] = await t.deps.db.select().from(milestones).where(eq(milestones.id, milestone.id));
    expect(row.status).toBe("verified");
    expect(
      await t.deps.db.select().from(disbursements).where(eq(disbursements.milestoneId, milestone.id)),
    ).toHaveLength(1);

    // Replaying the same assertion does not pass again.
    await forgetSecondFactor(verifier);
    const replay = await t.request("POST", "/api/auth/mfa/verify", { as: verifier, body: { passkey } });
    expect(replay.status).toBe(400);
    expect(replay.body.error.details.passkey).toBe("This passkey request has expired or was already used.");
  });

  it("accepts only the person's own passkey, and sign-in challenges are not second-factor challenges", async () => {
    const [mine, theirs] = [await t.user("admin", { secondFactor: false }), await t.user("admin")];
    await register(mine);
    const theirCredential = await register(theirs);
    await forgetSecondFactor(mine);
    const options = await t.request("POST", "/api/auth/mfa/passkey-options", { as: mine });
    const other = await t.request("POST", "/api/auth/mfa/verify", {
      as: mine,
      body: { passkey: device.get(theirCredential, options.body) },
    });
    expect(other.status).toBe(400);
    expect(other.body.error.details.passkey).toBe("This passkey is not registered with Tranche.");

    const signInOptions = await t.request("POST", "/api/auth/passkeys/sign-in-options", { as: null });
    const crossed = await t.request("POST", "/api/auth/mfa/verify", {
      as: mine,
      body: { passkey: device.get(theirCredential, signInOptions.body) },
    });
    expect(crossed.status).toBe(400);
    expect(crossed.body.error.details.passkey).toBe("This passkey request has expired or was already used.");
  });
});

describe("revoking a passkey from the web", () => {
  it("revokes it (audited), refuses it for sign-in and as a second factor, and makes other sessions pass again", async () => {
    const verifier = await t.user("verifier");
    const lost = await register(verifier, "Lost phone");
    const kept = await register(verifier, "Laptop");
    const list = await t.request("GET", "/api/auth/passkeys", { as: verifier });
    const lostId = list.body.items.find((p: { deviceName: string }) => p.deviceName === "Lost phone").id;

    // Another session (say, on the lost phone) that had passed the second factor.
    const options = await t.request("POST", "/api/auth/passkeys/sign-in-options", { as: null });
    const onPhone = await t.request("POST", "/api/auth/passkeys/sign-in", {
      as: null,
      body: { response: device.get(lost, options.body) },
    });
    const phone = { ...verifier, cookie: cookieFrom(onPhone.headers) };
    expect((await t.request("GET", "/api/auth/mfa", { as: phone })).body.validUntil).not.toBeNull();

    const body = { password: TEST_PASSWORD };
    const revoked = await t.request("DELETE", `/api/auth/passkeys/${lostId}`, { as: verifier, body });
    expect(revoked.status).toBe(204);
    expect((await t.request("DELETE", `/api/auth/passkeys/${lostId}`, { as: verifier, body })).status).toBe(404);
    const after = await t.request("GET", "/api/auth/passkeys", { as: verifier });
    expect(after.body.items.map((p: { deviceName: string }) => p.deviceName)).toEqual(["Laptop"]);
    expect(await audited(verifier.id, "user.passkey_revoked")).toHaveLength(1);
    expect((await t.request("GET", "/api/auth/mfa", { as: phone })).body.validUntil).toBeNull();
    expect((await t.request("GET", "/api/auth/mfa", { as: verifier })).body.validUntil).not.toBeNull();

    const again = await t.request("POST", "/api/auth/passkeys/sign-in-options", { as: null });
    const signIn = await t.request("POST", "/api/auth/passkeys/sign-in", {
      as: null,
      body: { response: device.get(lost, again.body) },
    });
    expect(signIn.status).toBe(401);
    expect(signIn.body.error.message).toBe("This passkey was revoked. Use another passkey or your authenticator app.");

    await forgetSecondFactor(verifier);
    const mfa = await t.request("POST", "/api/auth/mfa/passkey-options", { as: verifier });
    expect(mfa.body.allowCredentials).toHaveLength(1);
    const asFactor = await t.request("POST", "/api/auth/mfa/verify", {
      as: verifier,
      body: { passkey: device.get(lost, mfa.body) },
    });
    expect(asFactor.status).toBe(400);
    expect(asFactor.body.error.details.passkey).toMatch(/was revoked/);
    // The other passkey still works.
    const ok = await t.request("POST", "/api/auth/mfa/passkey-options", { as: verifier });
    const passed = await t.request("POST", "/api/auth/mfa/verify", {
      as: verifier,
      body: { passkey: device.get(kept, ok.body) },
    });
    expect(passed.status).toBe(200);
  });

  it("needs a session that passed the second factor, and cannot touch another person's passkey", async () => {
    const [owner, stranger] = [await t.user("project_owner"), await t.user("project_owner")];
    await register(owner);
    const [{ id }] = (await t.request("GET", "/api/auth/passkeys", { as: owner })).body.items;
    const body = { password: await givePassword(t, stranger) };
    expect((await t.request("DELETE", `/api/auth/passkeys/${id}`, { as: stranger, body })).status).toBe(404);
    await forgetSecondFactor(owner);
    const refused = await t.request("DELETE", `/api/auth/passkeys/${id}`, { as: owner, body });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("mfa_required");
    const [row] = await t.deps.db.select().from(passkeys).where(eq(passkeys.id, id));
    expect(row.revokedAt).toBeNull();
  });
});

describe("changing passkeys needs the password typed again, even minutes after passing the second factor", () => {
  // A session alone (a copied cookie, a script in the page, an unlocked laptop) within the 12 hours must not plant a
  // passkey of its own (it would sign in without the password and outlive a password change), nor revoke the
  // owner's. Each session here passed the second factor minutes ago.
  const activeOf = async (user: TestUser) =>
    (await t.deps.db.select().from(passkeys).where(eq(passkeys.userId, user.id)))
      .filter((row) => row.revokedAt === null)
      .map((row) => row.deviceName);

  it("adding one: no challenge is handed out without the password", async () => {
    const admin = await t.user("admin");
    await register(admin, "Laptop");
    const options = (password: string | undefined, headers: Record<string, string>) =>
      t.request("POST", "/api/auth/passkeys/registration-options", {
        as: admin,
        headers,
        body: password ? { password } : {},
      });
    await expectPasswordAsked(t, admin, options);
    const challenges = await t.deps.db.select().from(webauthnChallenges).where(eq(webauthnChallenges.userId, admin.id));
    expect(challenges.filter((row) => row.purpose === "register")).toEqual([]);
    const granted = await options(TEST_PASSWORD, {});
    expect(granted.status).toBe(200);
    const { response } = device.create(granted.body);
    expect(
      (await t.request("POST", "/api/auth/passkeys", { as: admin, body: { name: "Phone", response } })).status,
    ).toBe(201);
    expect((await activeOf(admin)).sort()).toEqual(["Laptop", "Phone"]);
  });

  it("revoking one", async () => {
    const owner = await t.user("project_owner");
    await register(owner, "Laptop");
    const [{ id }] = (await t.request("GET", "/api/auth/passkeys", { as: owner })).body.items;
    const revoke = (password: string | undefined, headers: Record<string, string>) =>
      t.request("DELETE", `/api/auth/passkeys/${id}`, { as: owner, headers, body: password ? { password } : {} });
    await expectPasswordAsked(t, owner, revoke);
    expect(await activeOf(owner)).toEqual(["Laptop"]);
    expect(await audited(owner.id, "user.passkey_revoked")).toEqual([]);
    expect((await revoke(TEST_PASSWORD, {})).status).toBe(204);
    expect(await activeOf(owner)).toEqual([]);
  });
});
