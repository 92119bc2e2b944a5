// Releases under load, one server process on PostgreSQL with a seed-scale portfolio:
//   1. approvals (each a full release: transaction, audit, notifications, outbox) --in-flight at a time, by the
//      milestones' own verifiers: approvals a second; the CPU each costs the machine, the server and PostgreSQL
//      with all it causes (notifications, emails, webhooks) until the outbox is empty (from /proc, on Linux); and
//      GET /api/me a second in the same process for scale;
//   2. how long after each approval's answer its `release.instructed` webhook reaches a local endpoint;
//   3. --streams open event streams of one investor, then approvals one by one in that investor's projects: how long
//      after each approval's answer every stream has its notification.
// Goals (exit 1 when missed): 250 approvals a second; webhook p95 ≤ 250 ms; stream p95 ≤ 100 ms.
//
//   TEST_DATABASE_URL=postgres://… npm run bench:releases -- --template perf_10k [--approvals 200]
//        [--in-flight 16] [--streams 1000] [--notifications 20] [--server-root ../other-checkout]
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import pg from "pg";
import { cpuTimes, percentile, signIn, startBenchServer, tempPostgres } from "./support";

const { values } = parseArgs({
  options: {
    template: { type: "string" },
    approvals: { type: "string", default: "200" },
    "in-flight": { type: "string", default: "16" },
    streams: { type: "string", default: "1000" },
    notifications: { type: "string", default: "20" },
    "server-root": { type: "string" },
  },
});
const approvals = Number(values.approvals);
const inFlight = Number(values["in-flight"]);
const streamCount = Number(values.streams);
const notificationCount = Number(values.notifications);
const GOALS = { approvalsPerSecond: 250, webhookP95Ms: 250, streamP95Ms: 100 };

const copy = await tempPostgres("tranche_releases", values.template);
if (!copy || !values.template) throw new Error("set TEST_DATABASE_URL and --template (a seed-scale database)");
const problems: string[] = [];
const fmt = (xs: number[]) =>
  `p50 ${percentile(xs, 50).toFixed(0)} ms, p95 ${percentile(xs, 95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;

// The custodian: notes when each release's instruction arrives.
const arrived = new Map<string, number>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = performance.now();
    try {
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const milestoneId = event?.data?.milestone?.id;
      if (event.type === "release.instructed" && milestoneId && !arrived.has(milestoneId)) arrived.set(milestoneId, at);
    } catch {}
    res.end("ok");
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

try {
  const server = await startBenchServer({
    databaseUrl: copy.url,
    root: values["server-root"],
    env: { MFA_REQUIRED_ROLES: "none", WEBHOOK_ALLOW_PRIVATE: "true", LOG_LEVEL: "error" },
  });
  const db = new pg.Client({ connectionString: copy.url });
  await db.connect();
  try {
    const base = server.base;
    const post = (cookie: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { cookie, origin: base, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const admin = await signIn(base, "admin@tranche.demo");
    const hook = await post(admin, "/api/webhook-endpoints", {
      url: receiverUrl,
      events: ["release.instructed"],
      description: "Bench custodian",
    });
    if (hook.status !== 201) throw new Error(`webhook endpoint: ${hook.status} ${await hook.text()}`);

    // Milestones in verification with their verifiers: outside the investor's projects for the load, inside for
    // the streams.
    const investorId = (await db.query("select id from users where email = 'investor@tranche.demo'")).rows[0].id;
    const pickMilestones = async (mine: boolean, limit: number) =>
      (
        await db.query<{ id: string; email: string }>(
          `select m.id, u.email from milestones m join users u on u.id = m.verifier_id
           where m.status = 'in_verification'
             and ${mine ? "" : "not "}exists (select 1 from project_members pm
                   where pm.project_id = m.project_id and pm.user_id = $1)
           order by random() limit $2`,
          [investorId, limit],
        )
      ).rows;
    const load = await pickMilestones(false, approvals);
    const quiet = await pickMilestones(true, notificationCount);
    if (load.length < approvals || quiet.length < notificationCount)
      throw new Error("not enough milestones in verification");
    const cookies = new Map<string, string>();
    for (const { email } of [...load, ...quiet]) {
      if (!cookies.has(email)) cookies.set(email, await signIn(base, email));
    }
    const approve = async (m: { id: string; email: string }) => {
      const res = await post(cookies.get(m.email) as string, `/api/milestones/${m.id}/approve`, {});
      const at = performance.now();
      if (res.status !== 200) throw new Error(`approve ${m.id}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      return at;
    };

    // 1 and 2: approvals at `inFlight`, and their instructions' arrival. Meanwhile: how many transactions wait for
    // the audit record's lock (appendAudit's advisory lock), sampled every 20 ms.
    const waiting: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and objid = 727002
           and database = (select oid from pg_database where datname = current_database())`,
        );
        waiting.push(rows[0].n);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const answered = new Map<string, number>();
    const latencies: number[] = [];
    const pid = server.child.pid as number;
    const cpuBefore = cpuTimes(pid);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < load.length) {
          const m = load[next++];
          const t0 = performance.now();
          const at = await approve(m);
          latencies.push(at - t0);
          answered.set(m.id, at);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const rate = load.length / seconds;
    sampling = false;
    await sampler;
    const meanWaiting = waiting.reduce((a, b) => a + b, 0) / Math.max(1, waiting.length);
    console.log(
      `audit lock: on average ${meanWaiting.toFixed(1)} of ${inFlight} approvals waiting for it (max ${Math.max(...waiting)}, ${waiting.length} samples)`,
    );
    // Every instruction at the endpoint and the outbox empty: all the approvals caused is done.
    const deadline = performance.now() + 60_000;
    const outboxPending = async () =>
      (await db.query<{ n: number }>("select count(*)::int as n from outbox where status = 'pending'")).rows[0].n;
    while ((arrived.size < load.length || (await outboxPending()) > 0) && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const cpuAfter = cpuTimes(pid);
    if (cpuBefore && cpuAfter) {
      const per = (key: keyof typeof cpuBefore) => ((cpuAfter[key] - cpuBefore[key]) / load.length).toFixed(1);
      console.log(
        `CPU per approval, with all it causes until the outbox is empty: machine ${per("machine")} ms (server ${per("process")}, PostgreSQL ${per("postgres")})`,
      );
    }
    // GET /api/me in the same process, for scale.
    const investor = await signIn(base, "investor@tranche.demo");
    const meStarted = performance.now();
    let meCount = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (performance.now() - meStarted < 3000) {
          await (await fetch(`${base}/api/me`, { headers: { cookie: investor } })).arrayBuffer();
          meCount++;
        }
      }),
    );
    const meRate = meCount / ((performance.now() - meStarted) / 1000);
    console.log(
      `approvals: ${load.length} at ${inFlight} in flight in ${seconds.toFixed(1)} s: ${rate.toFixed(0)}/s (answer ${fmt(latencies)}); GET /api/me ${meRate.toFixed(0)}/s (${(rate / meRate).toFixed(2)})`,
    );
    if (rate < GOALS.approvalsPerSecond) problems.push(`${rate.toFixed(0)} approvals/s`);

    const webhook = load
      .filter((m) => arrived.has(m.id))
      .map((m) => (arrived.get(m.id) as number) - (answered.get(m.id) as number));
    console.log(
      `release.instructed at the endpoint after the approval's answer: ${webhook.length} of ${load.length} delivered, ${fmt(webhook)}`,
    );
    if (webhook.length < load.length)
      problems.push(`${load.length - webhook.length} instructions not delivered in 60 s`);
    if (percentile(webhook, 95) > GOALS.webhookP95Ms)
      problems.push(`webhook p95 ${percentile(webhook, 95).toFixed(0)} ms`);

    // 3: streams.
    const received = new Map<string, number[]>();
    const controllers: AbortController[] = [];
    let open = 0;
    await Promise.all(
      Array.from({ length: streamCount }, async () => {
        const controller = new AbortController();
        controllers.push(controller);
        const res = await fetch(`${base}/api/events`, { headers: { cookie: investor }, signal: controller.signal });
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        const decoder = new TextDecoder();
        let buffer = "";
        let first = true;
        const pump = async () => {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            buffer += decoder.decode(value, { stream: true });
            if (first && buffer.includes(": connected")) {
              first = false;
              open++;
            }
            let cut = buffer.indexOf("\n\n");
            while (cut >= 0) {
              const block = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const data = /^data: (.*)$/m.exec(block)?.[1];
              if (/^event: notification$/m.test(block) && data) {
                const milestoneId = JSON.parse(data)?.subject?.milestoneId;
                if (milestoneId) {
                  if (!received.has(milestoneId)) received.set(milestoneId, []);
                  received.get(milestoneId)?.push(performance.now());
                }
              }
              cut = buffer.indexOf("\n\n");
            }
          }
        };
        void pump().catch(() => {});
      }),
    );
    while (open < streamCount) await new Promise((r) => setTimeout(r, 50));
    const streamLatencies: number[] = [];
    let complete = 0;
    for (const m of quiet) {
      const at = await approve(m);
      const until = performance.now() + 5000;
      while ((received.get(m.id)?.length ?? 0) < streamCount && performance.now() < until) {
        await new Promise((r) => setTimeout(r, 5));
      }
      const got = received.get(m.id) ?? [];
      if (got.length === streamCount) complete++;
      streamLatencies.push(...got.map((t) => t - at));
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const c of controllers) c.abort();
    console.log(
      `${streamCount} streams, ${quiet.length} approvals one by one: ${complete} reached every stream; ${fmt(streamLatencies)} after the approval's answer`,
    );
    if (complete < quiet.length) problems.push(`${quiet.length - complete} notifications missed a stream`);
    if (percentile(streamLatencies, 95) > GOALS.streamP95Ms)
      problems.push(`stream p95 ${percentile(streamLatencies, 95).toFixed(0)} ms`);
  } finally {
    await db.end();
    await server.stop();
  }
} finally {
  receiver.close();
  await copy.drop();
}
for (const p of problems) console.error(`GOAL: ${p}`);
console.log(problems.length ? `${problems.length} goal(s) missed.` : "Every goal holds.");
process.exitCode = problems.length ? 1 : 0;
