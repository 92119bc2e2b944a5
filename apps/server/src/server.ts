import type http from "node:http";
import path from "node:path";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import type { Deps, Lifecycle } from "./context";
import { openDatabase } from "./db/client";
import type { Env } from "./env";
import { createLogger } from "./lib/logger";
import { createMetrics } from "./lib/metrics";
import { createRealtime } from "./realtime/hub";
import { metricsPortApp } from "./routes/metrics";
import { seedDemoData, shouldSeed } from "./seed";
import { createCheckpointer } from "./services/audit/checkpoints";
import { loadOrCreateAuditKey } from "./services/audit/signing-key";
import { issueMissingCertificates } from "./services/certificates/facts";
import { createDigestScheduler } from "./services/email/digest";
import { sweepPartialUploads } from "./services/evidence/storage";
import { closeOcr } from "./services/evidence-checks/ocr";
import { createHousekeeper, createTotalsCompactor } from "./services/housekeeping";
import { outboxTopics } from "./services/outbox/topics";
import { createOutboxWorker } from "./services/outbox/worker";
import { vapidKeys } from "./services/push/vapid";
import { createOverdueSweeper } from "./services/verifiers/turnaround";
import { loadOrCreateSecretBox } from "./services/webhooks/secrets";

export interface RunningServer {
  deps: Deps;
  port: number;
  url: string;
  /** The port /metrics is served on alone (METRICS_PORT), or null. */
  metricsPort: number | null;
  /** Stops at once: event streams end, in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS), the database closes. */
  stop(): Promise<void>;
  /**
   * On SIGTERM: /api/health/ready answers 503 at once while everything is still served, for SHUTDOWN_DRAIN_MS (so
   * a load balancer takes the process out of rotation before it stops accepting), then stop().
   */
  shutdown(): Promise<void>;
}

/** Opens the database (migrating it), seeds demo data when asked, and listens. */
export async function startServer(env: Env): Promise<RunningServer> {
  const logger = createLogger(env);
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : path.resolve(env.DATA_DIR, "pglite"),
    logger,
    reconnectDelaysMs: env.REALTIME_RECONNECT_DELAYS_MS,
    prepare: env.DATABASE_PREPARED_STATEMENTS,
  });
  const swept = await sweepPartialUploads(env);
  if (swept > 0) logger.info({ folders: swept }, "removed partial uploads left by a stopped process");
  const realtime = await createRealtime(database, logger);
  const auditKey = loadOrCreateAuditKey(env, logger);
  const webhookSecrets = loadOrCreateSecretBox(env, logger);
  const metrics = createMetrics();
  metrics.attach({ database, realtime });
  const lifecycle: Lifecycle = { draining: false };
  const deps: Deps = { env, database, db: database.db, logger, metrics, realtime, auditKey, webhookSecrets, lifecycle };
  // Made on first start (or taken from VAPID_*), so the first browser to enable push finds it.
  await vapidKeys(deps);
  if (await shouldSeed(deps)) {
    await seedDemoData(database.db);
    logger.info("demo data seeded");
  }
  // Releases made before certificates were issued with them get theirs now (a GET never writes one).
  const issued = await issueMissingCertificates(database.db);
  if (issued > 0) logger.info({ certificates: issued }, "issued the certificates older releases lacked");
  const app = createApp(deps);
  // On its own connections, so deliveries do not queue behind the requests' transactions (ADR 026).
  const background: Deps = { ...deps, db: database.backgroundDb };
  const outboxWorker = createOutboxWorker(background, outboxTopics(background), { leaseMs: env.OUTBOX_LEASE_MS });
  outboxWorker.start();
  const checkpointer = createCheckpointer(deps, auditKey);
  checkpointer.start();
  const overdueSweeper = createOverdueSweeper(deps);
  overdueSweeper.start();
  const digests = createDigestScheduler(deps);
  digests.start();
  const housekeeper = createHousekeeper(deps);
  housekeeper.start();
  const totalsCompactor = createTotalsCompactor(deps);
  totalsCompactor.start();

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, () => resolve(s));
    keepConnectionsLonger(s as http.Server);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  const url = `http://${env.HOST === "0.0.0.0" ? "localhost" : env.HOST}:${port}`;
  const metricsServer =
    env.METRICS_PORT === undefined
      ? null
      : await new Promise<ReturnType<typeof serve>>((resolve) => {
          const s = serve({ fetch: metricsPortApp(deps).fetch, port: env.METRICS_PORT, hostname: env.HOST }, () =>
            resolve(s),
          );
        });
  const metricsAddress = metricsServer?.address();
  const metricsPort = typeof metricsAddress === "object" && metricsAddress ? metricsAddress.port : null;
  if (metricsPort !== null) logger.info({ port: metricsPort }, "metrics are served on their own port");

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Open event streams would hold server.close() until the timeout: end them first.
      await realtime.close();
      // Each periodic task stops and finishes a run under way before the database closes.
      await Promise.all([
        checkpointer.stop(),
        overdueSweeper.stop(),
        digests.stop(),
        housekeeper.stop(),
        totalsCompactor.stop(),
        outboxWorker.stop(),
      ]);
      await closeOcr();
      metricsServer?.close();
      // Stop accepting; in-flight requests finish; keep-alive sockets close as soon as they are idle (those busy
      // now become idle when their answer is sent, and would otherwise stay open for the keep-alive timeout).
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const closeIdle = () => (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      closeIdle();
      const sweep = setInterval(closeIdle, 50);
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, env.SHUTDOWN_TIMEOUT_MS).unref());
      await Promise.race([closed, timeout]);
      clearInterval(sweep);
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await database.close();
    })();
    return stopping;
  };
  const shutdown = async () => {
    lifecycle.draining = true;
    if (env.SHUTDOWN_DRAIN_MS > 0) {
      logger.info({ ms: env.SHUTDOWN_DRAIN_MS }, "draining: readiness answers 503 before the listener closes");
      await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DRAIN_MS));
    }
    await stop();
  };
  return { deps, port, url, metricsPort, stop, shutdown };
}

/**
 * Idle keep-alive connections stay open 65 s instead of Node's 5 s. A client (or a load balancer) that reuses a
 * connection just as the server closes it gets a reset instead of an answer; the longer timeout keeps the server from
 * being the side that closes first (HAProxy and most balancers close idle connections sooner).
 */
function keepConnectionsLonger(server: http.Server): void {
  server.keepAliveTimeout = 65_000;
  // Must exceed keepAliveTimeout, or a request arriving late on a kept connection is cut off.
  server.headersTimeout = 66_000;
}
