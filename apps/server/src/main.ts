import { loadEnv } from "./env";
import { startServer } from "./server";

const env = loadEnv();
const running = await startServer(env);
running.deps.logger.info(
  { url: running.url, database: running.deps.database.kind },
  `Tranche is listening on ${running.url}`,
);

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, async () => {
    running.deps.logger.info({ signal }, "shutting down");
    await running.stop();
    process.exit(0);
  });
}
