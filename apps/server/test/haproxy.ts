// HAProxy (Debian's haproxy package) in front of test server processes, with the repository's deploy/haproxy.cfg.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "./server-process";

const config = fileURLToPath(new URL("../../../deploy/haproxy.cfg", import.meta.url));

export interface LoadBalancer {
  url: string;
  child: ChildProcess;
  logs: string[];
  /** Resolves once answers through the proxy have come from every named server ("a", "b"). */
  waitForServers(names: string[], timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function haproxyInstalled(): boolean {
  return spawnSync("haproxy", ["-v"]).status === 0;
}

/** Starts HAProxy on a free port, balancing between the given servers (host:port). */
export async function startHaproxy(servers: { a: string; b: string }): Promise<LoadBalancer> {
  if (!haproxyInstalled()) throw new Error("haproxy is not installed (Debian: apt-get install -y haproxy)");
  const port = await freePort();
  const logs: string[] = [];
  const child = spawn("haproxy", ["-db", "-f", config], {
    env: { ...process.env, TRANCHE_BIND: `127.0.0.1:${port}`, TRANCHE_A: servers.a, TRANCHE_B: servers.b },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => logs.push(String(chunk)));
  child.stderr?.on("data", (chunk) => logs.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    child,
    logs,
    async waitForServers(names, timeoutMs = 30_000) {
      const seen = new Set<string>();
      const deadline = Date.now() + timeoutMs;
      while (!names.every((n) => seen.has(n))) {
        if (child.exitCode !== null) throw new Error(`haproxy exited:\n${logs.join("")}`);
        if (Date.now() > deadline) throw new Error(`haproxy did not reach ${names.join(", ")}:\n${logs.join("")}`);
        try {
          const res = await fetch(`${url}/api/health/ready`);
          const server = res.headers.get("x-tranche-server");
          if (res.ok && server) seen.add(server);
        } catch {}
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
