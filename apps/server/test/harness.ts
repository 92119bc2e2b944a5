// Each test file builds its own app on its own database: in-memory PGlite, or a fresh database on the
// PostgreSQL server named by TEST_DATABASE_URL (dropped afterwards), so files never share data.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Role } from "@tranche/domain";
import { eq } from "drizzle-orm";
import pg from "pg";
import { expect } from "vitest";
import { createApp } from "../src/app";
import { hashPassword } from "../src/auth/password";
import { cookieName, createSession } from "../src/auth/sessions";
import type { Deps } from "../src/context";
import { openDatabase } from "../src/db/client";
import { users } from "../src/db/schema";
import { type Env, testEnv } from "../src/env";
import { createLogger } from "../src/lib/logger";
import { createMetrics } from "../src/lib/metrics";
import { createRealtime } from "../src/realtime/hub";
import { generateAuditKey } from "../src/services/audit/signing-key";
import { generateSecretBox } from "../src/services/webhooks/secrets";
import { type Contract, contractOf } from "./contract";

type RequestBody = NonNullable<Parameters<typeof fetch>[1]>["body"];

export const usePostgres = process.env.TEST_DB === "pg";

export interface TestUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  cookie: string;
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  deps: Deps;
  app: ReturnType<typeof createApp>;
  request<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; as?: TestUser | null; headers?: Record<string, string>; raw?: RequestBody },
  ): Promise<TestResponse<T>>;
  /**
   * Inserts a user and opens a session for them (no password hashing: fast). The session has passed the second
   * factor, so protected actions work; `secondFactor: false` opens one that has not.
   */
  user(
    role: Role,
    overrides?: Partial<{
      name: string;
      email: string;
      organization: string;
      /** The organization an admin verified (what release rules compare); the profile's is `organization`. */
      verifiedOrganization: string;
      expertise: string[];
      secondFactor: boolean;
    }>,
  ): Promise<TestUser>;
  close(): Promise<void>;
}

// Any valid scrypt string: factory users sign in through sessions, not passwords.
const UNUSABLE_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAA";

/** A new, empty PostgreSQL database beside TEST_DATABASE_URL's, and how to drop it. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DB=pg needs TEST_DATABASE_URL");
  const name = `tranche_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A migrated, empty embedded database as a tarball, made once for all test files (keyed by the migrations'
 * contents and PGlite's version) and kept in the temporary directory: loading it takes a fraction of the time
 * a fresh database needs to initialise and migrate.
 */
async function migratedPglite(): Promise<Blob> {
  const folder = fileURLToPath(new URL("../drizzle", import.meta.url));
  const files = readdirSync(folder, { recursive: true, encoding: "utf8" }).filter((file) => /\.(sql|json)$/.test(file));
  // The lockfile pins PGlite's version, whose data directory format the snapshot depends on.
  const hash = createHash("sha256").update(
    readFileSync(fileURLToPath(new URL("../../../package-lock.json", import.meta.url))),
  );
  for (const file of files.sort()) hash.update(file).update(readFileSync(path.join(folder, file)));
  const snapshot = path.join(tmpdir(), `tranche-test-pglite-${hash.digest("hex").slice(0, 16)}.tar`);
  if (!existsSync(snapshot)) {
    const fresh = await openDatabase({});
    const tarball = await fresh.dump?.();
    await fresh.close();
    if (!tarball) throw new Error("the embedded database cannot be dumped");
    // Written aside, then renamed: a test file running at the same time never reads half a file.
    const partial = `${snapshot}.${process.pid}.part`;
    writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
    renameSync(partial, snapshot);
  }
  return new Blob([readFileSync(snapshot)]);
}

export async function createTestApp(envOverrides: Partial<Env> = {}): Promise<TestApp> {
  const pgDb = usePostgres ? await createPgDatabase() : null;
  const env = testEnv({ DATABASE_URL: pgDb?.url, TRUST_PROXY: true, ...envOverrides });
  const logger = createLogger(env);
  const database = await openDatabase({
    url: pgDb?.url,
    pgliteSnapshot: pgDb ? undefined : await migratedPglite(),
    logger,
    reconnectDelaysMs: env.REALTIME_RECONNECT_DELAYS_MS,
    prepare: env.DATABASE_PREPARED_STATEMENTS,
  });
  const realtime = await createRealtime(database, logger);
  const metrics = createMetrics();
  metrics.attach({ database, realtime });
  const deps: Deps = {
    env,
    database,
    db: database.db,
    logger,
    metrics,
    realtime,
    auditKey: generateAuditKey({ logFile: env.AUDIT_CHECKPOINT_LOG }),
    webhookSecrets: generateSecretBox(),
  };
  const app = createApp(deps);
  let counter = 0;
  let contract: Contract | undefined;
  const answers = async () => {
    contract ??= contractOf(
      (await (await app.request("/api/openapi.json")).json()) as Parameters<typeof contractOf>[0],
    );
    return contract;
  };

  return {
    deps,
    app,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { "x-forwarded-for": "198.51.100.7", ...options.headers };
      if (options.as) headers.cookie = options.as.cookie;
      let body: RequestBody | undefined = options.raw;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
      const res = await app.request(path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {}
      // The answer must be one the route declares: its status, and a body its schema accepts.
      (await answers()).check(method, path, res.status, res.headers.get("content-type"), parsed);
      return { status: res.status, body: parsed as any, headers: res.headers };
    },
    async user(role, overrides = {}) {
      counter++;
      const tag = `${randomBytes(4).toString("hex")}${counter}`;
      const email = overrides.email ?? `${role}.${tag}@example.test`;
      const name = overrides.name ?? `${role.replace("_", " ")} ${tag}`;
      const [row] = await database.db
        .insert(users)
        .values({
          email,
          name,
          role,
          passwordHash: UNUSABLE_HASH,
          organization: overrides.organization ?? null,
          verifiedOrganization: overrides.verifiedOrganization ?? null,
          expertise: overrides.expertise ?? [],
        })
        .returning({ id: users.id });
      const { token } = await createSession(database.db, row.id, {
        secondFactorPassed: overrides.secondFactor ?? true,
      });
      return { id: row.id, email, name, role, cookie: `${cookieName(env)}=${token}` };
    },
    async close() {
      await deps.realtime.close();
      await database.close();
      await pgDb?.drop();
    },
  };
}

/** The password a test gives a factory user who must type it (setting up a first second factor). */
export const TEST_PASSWORD = "a test passphrase, typed again 7";
let testPasswordHash: Promise<string> | undefined;

/** Gives `user` TEST_PASSWORD (hashed once per test file) and returns it. */
export async function givePassword(t: TestApp, user: TestUser): Promise<string> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  await t.deps.db
    .update(users)
    .set({ passwordHash: await testPasswordHash })
    .where(eq(users.id, user.id));
  return TEST_PASSWORD;
}

/** The session cookie from a Set-Cookie header, ready for the Cookie header. */
export function cookieFrom(headers: Headers): string {
  const raw = headers.get("set-cookie") ?? "";
  return raw.split(";")[0];
}

let passwordProbeIp = 0;

/**
 * For a change to how `user` signs in or passes the second factor: `send(password, headers)` is refused without the
 * password and with a wrong one (400, the same answer as the first set-up's), and wrong ones count as failed sign-ins
 * — the limit's worth from one IP stop even the right password there (429). Each call probes from an IP of its own;
 * the caller then checks that nothing changed, and that the right password from elsewhere goes through.
 */
export async function expectPasswordAsked(
  t: TestApp,
  user: TestUser,
  send: (password: string | undefined, headers: Record<string, string>) => Promise<TestResponse>,
): Promise<void> {
  const password = await givePassword(t, user);
  const from = { "x-forwarded-for": `192.0.2.${++passwordProbeIp}` };
  const missing = await send(undefined, from);
  expect(missing.status, JSON.stringify(missing.body)).toBe(400);
  expect(missing.body.error).toMatchObject({ code: "invalid_input", details: { password: "Enter your password." } });
  for (let i = 0; i < t.deps.env.SIGNIN_FAILURES_PER_ACCOUNT_IP; i++) {
    const wrong = await send(`not ${password} ${i}`, from);
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(400);
    expect(wrong.body.error).toMatchObject({
      code: "invalid_input",
      message: "That password is not correct.",
      details: { password: "That password is not correct." },
    });
  }
  expect((await send(password, from)).status).toBe(429);
}
