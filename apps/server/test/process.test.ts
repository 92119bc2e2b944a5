// The server as a process: start-up validation, the built SPA, graceful shutdown, and the CLI.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usePostgres } from "./harness";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const main = path.join(root, "apps/server/src/main.ts");
const cli = path.join(root, "apps/server/src/cli.ts");
const webDist = path.join(root, "apps/web/dist");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

let dataDir: string;
let databaseUrl = "";
let dropDb: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tranche-proc-"));
  if (usePostgres) {
    const base = process.env.TEST_DATABASE_URL as string;
    const name = `tranche_proc_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(base);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await dropDb?.();
});

const baseEnv = () => ({
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  LOG_LEVEL: "warn",
  DEMO_DATA: "false",
  // No load balancer in front: stop at once on SIGTERM (the next test opens the same embedded database).
  SHUTDOWN_DRAIN_MS: "0",
});

async function start(
  extra: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    cwd: root,
    env: { ...baseEnv(), PORT: String(port), HOST: "127.0.0.1", ...extra },
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(output);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { child, url, output: () => output };
    } catch {}
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`did not start: ${output}`);
}

describe("start-up", { timeout: 120_000 }, () => {
  it("refuses a bad environment value and names the variable", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", main], {
      cwd: root,
      env: { ...baseEnv(), PORT: "eighty" },
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("PORT");
  });
});

describe("a running server", { timeout: 120_000 }, () => {
  it("serves the SPA: index.html for client routes, long-lived hashed assets, compression", async () => {
    if (!existsSync(path.join(webDist, "index.html"))) throw new Error("build the web app first (npm test does)");
    const { child, url } = await start();
    try {
      const page = await fetch(`${url}/projects/some-client-route`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const asset = readdirSync(path.join(webDist, "assets")).find((f) => f.endsWith(".js")) as string;
      const res = await fetch(`${url}/assets/${asset}`, { headers: { "accept-encoding": "gzip" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toContain("immutable");
      expect(res.headers.get("content-encoding")).toBe("gzip");
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("finishes in-flight requests on SIGTERM, then exits cleanly", async () => {
    const { child, url } = await start();
    const inflight = fetch(`${url}/api/auth/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Late Arrival",
        email: `late${Date.now()}@example.test`,
        password: "quartz meadow signal 83",
      }),
    });
    await new Promise((r) => setTimeout(r, 20));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    const res = await inflight;
    expect(res.status).toBe(201);
    expect(await exited).toBe(0);
  });
});

describe("killed mid-upload", { timeout: 120_000 }, () => {
  const partials = () => {
    try {
      return (readdirSync(path.join(dataDir, "evidence", ".tmp"), { recursive: true }) as string[]).filter((f) =>
        f.endsWith(".part"),
      );
    } catch {
      return [];
    }
  };

  it("leaves no evidence row nor visible file, and the next start sweeps the partial file", async () => {
    const first = await start();
    // biome-ignore lint/suspicious/noExplicitAny: the test reads a few fields of JSON bodies
    const json = async (res: Response) => ({
      status: res.status,
      body: (await res.json()) as any,
      headers: res.headers,
    });
    const email = `kim${Date.now()}@example.test`;
    const signUp = await json(
      await fetch(`${first.url}/api/auth/sign-up`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          name: "Kim Owner",
          email,
          password: "quartz meadow signal 83",
        }),
      }),
    );
    expect(signUp.status).toBe(201);
    const signIn = await fetch(`${first.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: "quartz meadow signal 83" }),
    });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0];
    const post = async (route: string, body: unknown) =>
      json(
        await fetch(`${first.url}${route}`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify(body),
        }),
      );
    const project = await post("/api/projects", {
      name: "Interrupted upload",
      description: "A project whose evidence upload is cut by a crash.",
      location: "Leeds",
      totalCapital: 100000,
    });
    expect(project.status).toBe(201);
    const milestone = await post(`/api/projects/${project.body.id}/milestones`, {
      title: "Groundworks",
      description: "Foundations and drainage.",
      dueDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      capitalAmount: 50000,
    });
    expect(milestone.status).toBe(201);

    // A chunked upload that keeps going until the server is killed.
    const boundary = "----killed-upload";
    const upload = httpRequest(`${first.url}/api/milestones/${milestone.body.id}/evidence`, {
      method: "POST",
      headers: { cookie, "content-type": `multipart/form-data; boundary=${boundary}`, "transfer-encoding": "chunked" },
    });
    upload.on("error", () => {});
    upload.write(
      `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="site.mov"\r\ncontent-type: video/quicktime\r\n\r\n`,
    );
    for (let i = 0; i < 200 && partials().length === 0; i++) {
      upload.write(Buffer.alloc(16 * 1024, 7));
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(partials()).toHaveLength(1);
    const exited = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGKILL");
    await exited;
    upload.destroy();

    // Nothing became evidence: only the temp file remains, outside the content-addressed store.
    expect(partials()).toHaveLength(1);
    const stored = readdirSync(path.join(dataDir, "evidence")).filter((name) => !name.startsWith("."));
    const second = await start();
    try {
      expect(partials()).toEqual([]);
      const list = await json(
        await fetch(`${second.url}/api/milestones/${milestone.body.id}/evidence`, { headers: { cookie } }),
      );
      expect(list.status).toBe(200);
      expect(list.body.items).toEqual([]);
      expect(readdirSync(path.join(dataDir, "evidence")).filter((name) => !name.startsWith("."))).toEqual(stored);
    } finally {
      second.child.kill("SIGTERM");
    }
  });
});

describe("cli", { timeout: 120_000 }, () => {
  const run = (args: string[], input?: string) =>
    spawnSync(process.execPath, ["--import", "tsx", cli, ...args], {
      cwd: root,
      env: baseEnv(),
      input,
      encoding: "utf8",
    });

  it("creates the first admin from a password on stdin, and refuses weak passwords and duplicates", () => {
    const weak = run(["create-admin", "--email", "ops@example.test", "--name", "Ops Admin"], "password1234\n");
    expect(weak.status).toBe(1);
    expect(weak.stderr).toContain("too weak");
    const ok = run(
      ["create-admin", "--email", "ops@example.test", "--name", "Ops Admin"],
      "harbor violet engine 2049\n",
    );
    expect(ok.stdout).toContain("Admin ops@example.test created.");
    expect(ok.status).toBe(0);
    const again = run(
      ["create-admin", "--email", "ops@example.test", "--name", "Ops Admin"],
      "harbor violet engine 2049\n",
    );
    expect(again.status).toBe(1);
  });

  it("verifies the audit chain", () => {
    const res = run(["audit", "verify"]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/Audit chain intact: \d+ events verified/);
  });
});
