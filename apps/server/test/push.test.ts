// Web Push end to end: the test plays a browser (its own P-256 key pair and auth secret) and its push service (a
// local HTTP endpoint). What the server sends is decrypted here as a browser would (RFC 8291 with RFC 8188's
// aes128gcm, written with node:crypto), and its VAPID signature (RFC 8292) and urgency (RFC 8030) are checked.
import { createDecipheriv, createECDH, createPublicKey, type ECDH, hkdfSync, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cookieName, createSession } from "../src/auth/sessions";
import {
  auditEvents,
  milestones,
  outbox,
  pushSubscriptions,
  sessions as sessionsTable,
  vapidKeys,
} from "../src/db/schema";
import { outboxTopics } from "../src/services/outbox/topics";
import { createOutboxWorker } from "../src/services/outbox/worker";
import { notifyDueSoonMilestones, notifyOverdueVerifications } from "../src/services/verifiers/turnaround";
import { makeMilestone, makeProject } from "./factories";
import { createTestApp, type TestApp, type TestUser } from "./harness";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let t: TestApp;
let pushService: Server;
let base: string;
const received: Received[] = [];
/** What the push service answers, by path (201 Created unless told). */
const answers = new Map<string, number>();

beforeAll(async () => {
  t = await createTestApp({ PUSH_ALLOW_PRIVATE: true });
  pushService = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = answers.get(req.url ?? "") ?? 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => pushService.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(pushService.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => pushService.close(resolve));
  await t.close();
});
beforeEach(() => {
  received.length = 0;
});

const deliver = () => createOutboxWorker(t.deps, outboxTopics(t.deps)).drain();

/** A browser's push subscription: its own ECDH key pair and auth secret, at an endpoint of the local service. */
function browser(path: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    json: {
      endpoint: `${base}${path}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") },
    },
  };
}

/** RFC 8291 §3.4 and RFC 8188 §2: what the browser does with a push message (one record, aes128gcm). */
function decrypt(body: Buffer, ua: { ecdh: ECDH; auth: Buffer }): unknown {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const asPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  expect(idLength).toBe(65);
  expect(record.length).toBeLessThanOrEqual(recordSize);
  const ecdhSecret = ua.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), ua.ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, ua.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return JSON.parse(padded.subarray(0, end).toString("utf8"));
}

/** RFC 8292: `vapid t=<JWT signed ES256 by the application server's key>, k=<that public key>`. */
function checkVapid(authorization: string | undefined, publicKey: string, audience: string) {
  const match = authorization?.match(/^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/);
  expect(match, authorization).not.toBeNull();
  const [, header, claims, signature, k] = match as RegExpMatchArray;
  expect(k).toBe(publicKey);
  const raw = Buffer.from(k, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: raw.subarray(1, 33).toString("base64url"),
      y: raw.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
  const signed = Buffer.from(`${header}.${claims}`);
  const ok = verify("sha256", signed, { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  expect(ok).toBe(true);
  const body = JSON.parse(Buffer.from(claims, "base64url").toString("utf8"));
  expect(body.aud).toBe(audience);
  expect(body.exp * 1000).toBeGreaterThan(Date.now());
}

/** Another signed-in session of the same person (another browser), as a TestUser with its own cookie. */
async function signInAgain(user: TestUser): Promise<TestUser> {
  const { token } = await createSession(t.deps.db, user.id, { secondFactorPassed: true });
  return { ...user, cookie: `${cookieName(t.deps.env)}=${token}` };
}

async function subscribe(user: TestUser, path: string) {
  const device = browser(path);
  const res = await t.request("POST", "/api/push/subscriptions", {
    as: user,
    body: device.json,
    headers: { "user-agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.device).toBe("Chrome on Android");
  return device;
}

describe("VAPID keys", () => {
  it("are made once and kept in the database, the private half sealed; the public key is served", async () => {
    const first = await t.request("GET", "/api/push/vapid-public-key", { as: null });
    expect(first.status).toBe(200);
    expect(Buffer.from(first.body.publicKey, "base64url")).toHaveLength(65);
    const [row] = await t.deps.db.select().from(vapidKeys);
    expect(row.publicKey).toBe(first.body.publicKey);
    expect(row.privateKeySealed).toMatch(/^v1:/);
    expect((await t.request("GET", "/api/push/vapid-public-key", { as: null })).body).toEqual(first.body);
  });
});

describe("priority notifications", () => {
  it("pushes an overdue verification to its verifier's device, encrypted for it, with Urgency: high", async () => {
    const verifier = await t.user("verifier");
    const admin = await t.user("admin");
    const phone = await subscribe(verifier, "/push/verifier-phone");
    await subscribe(admin, "/push/admin-laptop");
    const project = await makeProject(t, { owner: await t.user("project_owner"), verifiers: [verifier] });
    const milestone = await makeMilestone(t, project, { status: "in_verification", verifier, title: "Roof trusses" });
    await t.deps.db
      .update(milestones)
      .set({ startedAt: new Date(Date.now() - 4 * 86_400_000) })
      .where(eq(milestones.id, milestone.id));

    expect(await notifyOverdueVerifications(t.deps)).toBe(1);
    await deliver();
    // The admins hear of it in the app; the push goes to the verifier's device only.
    expect(received.map((r) => r.path)).toEqual(["/push/verifier-phone"]);
    const [push] = received;
    expect(push.headers.urgency).toBe("high");
    expect(push.headers.ttl).toBe("86400");
    expect(push.headers["content-encoding"]).toBe("aes128gcm");
    expect(push.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    const { publicKey } = (await t.request("GET", "/api/push/vapid-public-key", { as: null })).body;
    checkVapid(push.headers.authorization, publicKey, base);
    expect(decrypt(push.body, phone)).toEqual({
      title: "Verification overdue",
      body: `"Roof trusses" (Test project) has been in verification for more than 3 days.`,
      url: `/field/milestones/${milestone.id}`,
      tag: `milestone-${milestone.id}`,
      urgency: "high",
      notificationId: expect.any(String),
      milestoneId: milestone.id,
    });
    const [device] = await t.deps.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, phone.json.endpoint));
    expect(device.lastSentAt).not.toBeNull();
  });

  it("pushes a resubmission (normal), a milestone due soon (normal, once) and a new assignment (low)", async () => {
    const verifier = await t.user("verifier");
    const owner = await t.user("project_owner");
    const phone = await subscribe(verifier, "/push/phone-2");
    const project = await makeProject(t, { owner, verifiers: [verifier], name: "Harbour wall" });
    const rejected = await makeMilestone(t, project, { status: "rejected", verifier, title: "Piling" });

    const resubmitted = await t.request("POST", `/api/milestones/${rejected.id}/resubmit`, { as: owner });
    expect(resubmitted.status).toBe(200);
    await deliver();
    expect(received.map((r) => r.headers.urgency)).toEqual(["normal"]);
    expect(decrypt(received[0].body, phone)).toMatchObject({
      title: "Milestone resubmitted",
      url: `/field/milestones/${rejected.id}`,
      urgency: "normal",
    });

    received.length = 0;
    const soon = await makeMilestone(t, project, { dueInDays: 2, title: "Cladding" });
    await notifyDueSoonMilestones(t.deps);
    expect(await notifyDueSoonMilestones(t.deps)).toBe(0);
    await deliver();
    const dueSoon = received.map((r) => decrypt(r.body, phone) as { title: string; url: string });
    expect(dueSoon).toContainEqual(
      expect.objectContaining({ title: "Verification due soon", url: `/field/milestones/${soon.id}` }),
    );
    expect(
      received.find((r) => (decrypt(r.body, phone) as { url: string }).url.endsWith(soon.id))?.headers.urgency,
    ).toBe("normal");

    received.length = 0;
    const admin = await t.user("admin");
    const second = await t.user("verifier");
    const tablet = await subscribe(second, "/push/tablet");
    const assigned = await t.request("POST", `/api/projects/${project.id}/members`, {
      as: admin,
      body: { userId: second.id, role: "verifier" },
    });
    expect(assigned.status).toBe(201);
    await deliver();
    expect(received.map((r) => [r.path, r.headers.urgency])).toEqual([["/push/tablet", "low"]]);
    expect(decrypt(received[0].body, tablet)).toMatchObject({ title: "Assigned to a project", url: "/field" });
  });

  it("drops a subscription the push service says is gone (410), and retries one that failed (503)", async () => {
    const verifier = await t.user("verifier");
    await subscribe(verifier, "/push/gone");
    await subscribe(verifier, "/push/busy");
    answers.set("/push/gone", 410);
    answers.set("/push/busy", 503);
    const owner = await t.user("project_owner");
    const project = await makeProject(t, { owner, verifiers: [verifier] });
    const rejected = await makeMilestone(t, project, { status: "rejected", verifier });
    expect((await t.request("POST", `/api/milestones/${rejected.id}/resubmit`, { as: owner })).status).toBe(200);
    await deliver();
    expect(received.map((r) => r.path).sort()).toEqual(["/push/busy", "/push/gone"]);
    const left = await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, verifier.id));
    expect(left.map((s) => s.endpoint)).toEqual([`${base}/push/busy`]);
    const waiting = await t.deps.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.topic, "push"), eq(outbox.status, "pending")));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ attempts: 1, lastError: "HTTP 503" });
    expect(waiting[0].runAt.getTime()).toBeGreaterThan(Date.now());
  });
});

describe("subscribing", () => {
  it("moves a device to whoever enables push on it last, and unsubscribes", async () => {
    const [a, b] = [await t.user("verifier"), await t.user("verifier")];
    const device = await subscribe(a, "/push/shared");
    const again = await t.request("POST", "/api/push/subscriptions", { as: b, body: device.json });
    expect(again.status).toBe(201);
    const rows = await t.deps.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, device.json.endpoint));
    expect(rows.map((r) => r.userId)).toEqual([b.id]);
    // Someone else's device is not theirs to turn off.
    await t.request("DELETE", "/api/push/subscriptions", { as: a, body: { endpoint: device.json.endpoint } });
    expect(
      await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.json.endpoint)),
    ).toHaveLength(1);
    const off = await t.request("DELETE", "/api/push/subscriptions", {
      as: b,
      body: { endpoint: device.json.endpoint },
    });
    expect(off.status).toBe(204);
    expect(
      await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.json.endpoint)),
    ).toEqual([]);
    // Each change is audited, the move naming whose device it was; the refused turn-off recorded nothing. The
    // endpoint, a capability, is not in the record: only its push service.
    const recorded = await t.deps.db
      .select()
      .from(auditEvents)
      .where(inArray(auditEvents.entityId, [a.id, b.id]))
      .orderBy(asc(auditEvents.id));
    const service = new URL(device.json.endpoint).origin;
    expect(recorded.map((e) => [e.action, e.actorId, e.after ?? e.before])).toEqual([
      ["push.subscribed", a.id, expect.objectContaining({ service })],
      ["push.subscribed", b.id, expect.objectContaining({ service, movedFrom: a.id })],
      ["push.unsubscribed", b.id, expect.objectContaining({ service })],
    ]);
    expect(JSON.stringify(recorded)).not.toContain(device.json.endpoint);
  });

  it("ends with the session that enabled it: signed out, signed out by another session (as a password change does), expired", async () => {
    const owner = await t.user("project_owner");
    /** A rejected milestone of a project the verifier checks: resubmitting it pushes to the verifier's devices. */
    const pushTo = async (verifier: TestUser) => {
      const project = await makeProject(t, { owner, verifiers: [verifier] });
      const rejected = await makeMilestone(t, project, { status: "rejected", verifier });
      received.length = 0;
      expect((await t.request("POST", `/api/milestones/${rejected.id}/resubmit`, { as: owner })).status).toBe(200);
      await deliver();
      return received.map((r) => r.path).sort();
    };
    const endpointsOf = async (userId: string) =>
      (await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)))
        .map((s) => s.endpoint.replace(base, ""))
        .sort();

    const verifier = await t.user("verifier");
    // A second session of the same verifier (another browser).
    const phoneSession = await signInAgain(verifier);
    await subscribe(verifier, "/push/laptop");
    await subscribe(phoneSession, "/push/phone");
    expect(await pushTo(verifier)).toEqual(["/push/laptop", "/push/phone"]);

    // Signing out on the phone stops its pushes; the laptop's go on.
    expect((await t.request("POST", "/api/auth/sign-out", { as: phoneSession })).status).toBe(204);
    expect(await endpointsOf(verifier.id)).toEqual(["/push/laptop"]);
    expect(await pushTo(verifier)).toEqual(["/push/laptop"]);

    // A lost phone signed out from the laptop ("Sign out" on one session, or all others) stops hearing anything.
    const lost = await signInAgain(verifier);
    await subscribe(lost, "/push/lost");
    const sessions = await t.request("GET", "/api/auth/sessions", { as: verifier });
    const other = sessions.body.items.find((s: { current: boolean }) => !s.current);
    expect((await t.request("DELETE", `/api/auth/sessions/${other.id}`, { as: verifier })).status).toBe(204);
    expect(await endpointsOf(verifier.id)).toEqual(["/push/laptop"]);
    const stolen = await signInAgain(verifier);
    await subscribe(stolen, "/push/stolen");
    expect((await t.request("POST", "/api/auth/sessions/sign-out-others", { as: verifier })).status).toBe(200);
    expect(await endpointsOf(verifier.id)).toEqual(["/push/laptop"]);

    // A session that ended by its idle limit, with nothing deleting it yet: its browser is dropped at the next push.
    const idle = await t.user("verifier");
    const device = await subscribe(idle, "/push/idle");
    await t.deps.db
      .update(sessionsTable)
      .set({ lastSeenAt: new Date(Date.now() - (t.deps.env.SESSION_IDLE_MINUTES + 1) * 60_000) })
      .where(eq(sessionsTable.userId, idle.id));
    expect(await pushTo(idle)).toEqual([]);
    expect(await endpointsOf(idle.id)).toEqual([]);

    // Signed in again, the browser sends its subscription again (each signed-in page does) and hears again; sent
    // again by the same session with the same keys, it is recorded once.
    const back = await signInAgain(idle);
    for (let i = 0; i < 2; i++) {
      const sent = await t.request("POST", "/api/push/subscriptions", { as: back, body: device.json });
      expect(sent.status).toBe(201);
    }
    expect(await pushTo(idle)).toEqual(["/push/idle"]);
    const recorded = await t.deps.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, idle.id), eq(auditEvents.action, "push.subscribed")));
    expect(recorded).toHaveLength(2);
  });

  it("refuses bad subscriptions with 400 and field messages, and needs a session", async () => {
    const user = await t.user("investor");
    const bad = await t.request("POST", "/api/push/subscriptions", {
      as: user,
      body: { endpoint: "ftp://push.example/x", keys: { p256dh: "short", auth: "x" } },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.details).sort()).toEqual(["keys.auth", "keys.p256dh"]);
    const ftp = await t.request("POST", "/api/push/subscriptions", {
      as: user,
      body: { ...browser("/x").json, endpoint: "ftp://push.example/x" },
    });
    expect(ftp.status).toBe(400);
    expect(ftp.body.error.details.endpoint).toBe("The push service's URL must use https.");
    const anonymous = await t.request("POST", "/api/push/subscriptions", { as: null, body: browser("/y").json });
    expect(anonymous.status).toBe(401);
  });
});
