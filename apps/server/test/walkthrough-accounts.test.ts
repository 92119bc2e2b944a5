// Issue 23 (third walkthrough), the account doors: sign-up's "check your email" made true (a single-use link
// through the outbox, the address unverified until it is used), a used reset link known before a password is
// typed, a picture over 200 KB named as such, and a second start of a verification by its verifier answered 200.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newLinkToken } from "../src/auth/one-time-token";
import { auditEvents, passwordResets } from "../src/db/schema";
import { outboxTopics } from "../src/services/outbox/topics";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { makeMilestone, makeProject } from "./factories";
import { cookieFrom, createTestApp, type TestApp, type TestUser } from "./harness";
import { actionLink, startSmtp, type TestMailbox } from "./smtp";

const PUBLIC_URL = "https://tranche.example.test";
const PASSWORD = "Correct-Horse-Battery-Staple-93";

let t: TestApp;
let mail: TestMailbox;
const deliver = () => createOutboxWorker(t.deps, outboxTopics(t.deps)).drain();

beforeAll(async () => {
  mail = await startSmtp();
  t = await createTestApp({ SMTP_URL: mail.url, PUBLIC_URL });
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

describe("sign-up", () => {
  it("emails a single-use link that confirms the address; until then the account shows it unverified", async () => {
    const email = "new.owner@x.test";
    const up = await t.request("POST", "/api/auth/sign-up", { body: { name: "Nora New", email, password: PASSWORD } });
    expect(up.status).toBe(201);
    const signedIn = await t.request("POST", "/api/auth/sign-in", { body: { email, password: PASSWORD } });
    const me = { cookie: cookieFrom(signedIn.headers) } as TestUser;
    expect((await t.request("GET", "/api/me", { as: me })).body).toMatchObject({ email, emailVerifiedAt: null });

    await deliver();
    const [message] = mail.to(email);
    expect(message.subject).toBe("Confirm your email for Tranche");
    const link = actionLink(message);
    expect(link.origin + link.pathname).toBe(`${PUBLIC_URL}/verify-email`);
    const token = link.searchParams.get("token") as string;

    const used = await t.request("POST", "/api/auth/verify-email", { body: { token } });
    expect(used.status).toBe(200);
    expect(used.body.email).toBe(email);
    const after = (await t.request("GET", "/api/me", { as: me })).body;
    expect(after.emailVerifiedAt).toBe(used.body.emailVerifiedAt);
    const again = await t.request("POST", "/api/auth/verify-email", { body: { token } });
    expect(again.status).toBe(410);
    expect(again.body.error.message).toBe("This confirmation link has already been used.");
    expect((await t.request("POST", "/api/auth/verify-email", { body: { token: "x".repeat(43) } })).status).toBe(404);
    // Confirmed: no new link is sent.
    expect((await t.request("POST", "/api/me/email-verification", { as: me })).status).toBe(422);
    const audited = await t.deps.db.select().from(auditEvents).where(eq(auditEvents.action, "user.email_verified"));
    expect(audited).toHaveLength(1);
  });

  it("sends a new link on request, and the earlier one stops working", async () => {
    const email = "slow.reader@x.test";
    await t.request("POST", "/api/auth/sign-up", { body: { name: "Sam Slow", email, password: PASSWORD } });
    const me = {
      cookie: cookieFrom(
        (await t.request("POST", "/api/auth/sign-in", { body: { email, password: PASSWORD } })).headers,
      ),
    } as TestUser;
    expect((await t.request("POST", "/api/me/email-verification", { as: me })).status).toBe(202);
    await deliver();
    const tokens = mail.to(email).map((m) => actionLink(m).searchParams.get("token") as string);
    expect(tokens).toHaveLength(2);
    // Only the newest works: the sign-up's link stopped when the new one was written.
    const statuses = [];
    for (const token of tokens) {
      statuses.push((await t.request("POST", "/api/auth/verify-email", { body: { token } })).status);
    }
    expect(statuses.sort()).toEqual([200, 410]);
  });

  it("leaves an invited person confirmed: the invitation link came to their address", async () => {
    const admin = await t.user("admin");
    const invited = await t.request("POST", "/api/invitations", {
      as: admin,
      body: { email: "invited@x.test", role: "investor" },
    });
    expect(invited.status).toBe(201);
    await deliver();
    const token = actionLink(mail.to("invited@x.test")[0]).searchParams.get("token") as string;
    const accepted = await t.request("POST", "/api/invitations/accept", {
      body: { token, name: "Ivy Invited", password: PASSWORD },
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user.emailVerifiedAt).not.toBeNull();
  });
});

describe("a password reset link", () => {
  it("says on opening whether it still works, before a new password is typed", async () => {
    const user = await t.user("investor");
    const fresh = newLinkToken();
    const used = newLinkToken();
    await t.deps.db.insert(passwordResets).values([
      { userId: user.id, tokenHash: fresh.hash, expiresAt: new Date(Date.now() + 600_000) },
      { userId: user.id, tokenHash: used.hash, expiresAt: new Date(Date.now() + 600_000), usedAt: new Date() },
    ]);
    const lookup = (token: string) => t.request("POST", "/api/auth/reset-password/lookup", { body: { token } });
    const ok = await lookup(fresh.token);
    expect(ok.status).toBe(200);
    expect(new Date(ok.body.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const gone = await lookup(used.token);
    expect(gone.status).toBe(410);
    expect(gone.body.error.message).toBe("This reset link has already been used. Ask for a new one.");
    expect((await lookup("y".repeat(43))).status).toBe(404);
    // Looking does not use it up.
    const still = await t.deps.db.select().from(passwordResets).where(eq(passwordResets.tokenHash, fresh.hash));
    expect(still[0].usedAt).toBeNull();
  });
});

describe("a picture over the limit", () => {
  it("is refused naming the 200 KB limit, not as a request body too large", async () => {
    const user = await t.user("investor");
    const res = await t.app.request("/api/me/avatar", {
      method: "PUT",
      headers: { cookie: user.cookie, "content-type": "image/png" },
      body: Buffer.alloc(300 * 1024, 1),
    });
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { message: string; details: unknown } };
    expect(body.error.message).toBe("The picture must be at most 200 KB.");
    expect(body.error.details).toEqual({ avatar: "The picture must be at most 200 KB." });
  });
});

describe("starting a verification twice", () => {
  it("answers the verifier who started it 200 with the current state, once recorded", async () => {
    const owner = await t.user("project_owner");
    const verifier = await t.user("verifier");
    const other = await t.user("verifier");
    const project = await makeProject(t, { owner, verifiers: [verifier, other] });
    const milestone = await makeMilestone(t, project);
    const [first, second] = await Promise.all(
      [1, 2].map(() => t.request("POST", `/api/milestones/${milestone.id}/start`, { as: verifier })),
    );
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toMatchObject({ status: "in_verification" });
    const started = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, milestone.id), eq(auditEvents.action, "milestone.verification_started")));
    expect(started).toHaveLength(1);
    // Another verifier still cannot take it over.
    expect((await t.request("POST", `/api/milestones/${milestone.id}/start`, { as: other })).status).toBe(409);
  });
});
