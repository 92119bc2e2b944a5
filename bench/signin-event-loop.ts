// Measures how much concurrent sign-ins stall the event loop (password hashing must not block other requests).
// Run: node --import tsx bench/signin-event-loop.ts [concurrent=40]
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createApp } from "../apps/server/src/app";
import { hashPassword } from "../apps/server/src/auth/password";
import { openDatabase } from "../apps/server/src/db/client";
import { users } from "../apps/server/src/db/schema";
import { testEnv } from "../apps/server/src/env";
import { createLogger } from "../apps/server/src/lib/logger";

const concurrent = Number(process.argv[2] ?? 40);
const BUDGET_MS = 50;
const env = testEnv({ SIGNIN_LIMIT_PER_IP: 100_000, TRUST_PROXY: true });
const database = await openDatabase({});
const app = createApp({ env, database, db: database.db, logger: createLogger(env) });
const password = "amber circuit lagoon 31";
// One account per request: each account has its own sign-in limit.
const passwordHash = await hashPassword(password);
await database.db.insert(users).values(
  Array.from({ length: concurrent }, (_, i) => ({
    email: `bench${i}@example.test`,
    name: `Bench ${i}`,
    passwordHash,
  })),
);

const signIn = (i: number) =>
  app.request("/api/auth/sign-in", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `10.0.${i >> 8}.${i & 255}` },
    body: JSON.stringify({ email: `bench${i}@example.test`, password }),
  });

// Health pings run alongside: their latency is what other users would feel.
const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
const pings: number[] = [];
let running = true;
const pinger = (async () => {
  while (running) {
    const t0 = performance.now();
    await app.request("/api/health");
    pings.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 10));
  }
})();
const t0 = performance.now();
const results = await Promise.all(Array.from({ length: concurrent }, (_, i) => signIn(i)));
const elapsed = performance.now() - t0;
running = false;
await pinger;
histogram.disable();
await database.close();

const ok = results.filter((r) => r.status === 200).length;
const maxDelay = histogram.max / 1e6;
pings.sort((a, b) => a - b);
const p99 = pings[Math.floor(pings.length * 0.99)] ?? 0;
console.log(`${concurrent} concurrent sign-ins: ${ok} succeeded in ${elapsed.toFixed(0)} ms`);
console.log(
  `event-loop delay max ${maxDelay.toFixed(1)} ms (budget ${BUDGET_MS} ms); health p99 during the burst ${p99.toFixed(1)} ms over ${pings.length} pings`,
);
process.exitCode = ok === concurrent && maxDelay <= BUDGET_MS ? 0 : 1;
