import { loadEnv } from "./env";

const env = loadEnv();
// Tracing patches `node:http` and `pg` as they load, so it starts before the server's modules are imported; when
// it is off, none of it is loaded.
const tracing = env.OTEL_EXPORTER_OTLP_ENDPOINT ? (await import("./lib/tracing")).startTracing(env) : null;
const { startServer } = await import("./server");
const running = await startServer(env);
running.deps.logger.info(
  { url: running.url, database: running.deps.database.kind, tracing: Boolean(tracing) },
  `Tranche is listening on ${running.url}`,
);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, async () => {
    running.deps.logger.info({ signal }, "shutting down");
    await running.shutdown();
    await tracing?.shutdown().catch((err) => running.deps.logger.warn({ err }, "could not send the last traces"));
    process.exit(0);
  });
}
