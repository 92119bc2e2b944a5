// Real server processes: several sharing one PostgreSQL database (the *.pg.test.ts files), or one on its own
// embedded database.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../..", import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  logs: string[];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `apps/server/src/main.ts` on a free port against `databaseUrl` (null: embedded PGlite in a fresh data
 * directory); resolves once /api/health answers.
 */
export async function startServerProcess(
  databaseUrl: string | null,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const logs: string[] = [];
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      ...(databaseUrl
        ? { DATABASE_URL: databaseUrl }
        : { DATA_DIR: mkdtempSync(path.join(tmpdir(), "tranche-process-")) }),
      DEMO_DATA: "false",
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // No load balancer waits to see readiness fail: stop at once unless a test asks for the drain.
      SHUTDOWN_DRAIN_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => logs.push(String(chunk)));
  child.stderr?.on("data", (chunk) => logs.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join("")}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`server did not start:\n${logs.join("")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, logs };
}

/** Stops a process and resolves with how long it took to exit (0 if it had already exited). */
export async function stopServerProcess(
  proc: ServerProcess | undefined,
  signal: NodeJS.Signals = "SIGTERM",
): Promise<number> {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return 0;
  const started = Date.now();
  const exited = new Promise((resolve) => proc.child.once("exit", resolve));
  proc.child.kill(signal);
  await exited;
  return Date.now() - started;
}
