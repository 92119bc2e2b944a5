// Starts the built server on a free port with a fresh data directory (embedded database and demo data),
// and a headless Debian Chromium driven by playwright-core; and the browser helpers the test files share.
// No test runner here: the benchmarks (bench/) use it too. The Playwright side is in suite.ts.
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

const root = fileURLToPath(new URL("../..", import.meta.url));
export const SCREENSHOT_DIR = path.join(root, "test-output", "screenshots");
/** Names the seeded data directory the global setup leaves for the test files. */
export const DEMO_DATA_DIR_ENV = "TRANCHE_E2E_DEMO_DATA_DIR";
export const DEMO_PASSWORD = "tranche-demo-2025";
export const DEMO = {
  investor: "investor@tranche.demo",
  owner: "owner@tranche.demo",
  verifier: "verifier@tranche.demo",
  admin: "admin@tranche.demo",
} as const;

async function freePort(): Promise<number> {
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

export interface RunningApp {
  url: string;
  dataDir: string;
  process: ChildProcess;
  logs: string[];
  /** Stops the server and removes its data directory, unless told to keep it. */
  stop(options?: { keepDataDir?: boolean }): Promise<void>;
}

/**
 * The built app (run `npm run build` first; `npm test` does). `copyDataDir` starts it on a copy of an existing
 * data directory: a server seeded once is copied in a fraction of the time seeding takes. `hostname` is what the
 * browser uses (and PUBLIC_URL names): WebAuthn needs a domain, so passkey tests use "localhost".
 */
export async function startApp(
  env: Record<string, string> = {},
  copyDataDir?: string,
  hostname: "127.0.0.1" | "localhost" = "127.0.0.1",
): Promise<RunningApp> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "tranche-e2e-"));
  if (copyDataDir) cpSync(copyDataDir, dataDir, { recursive: true });
  const logs: string[] = [];
  const child = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      DEMO_DATA: "true",
      LOG_LEVEL: "warn",
      // No load balancer in front: stop at once on SIGTERM.
      SHUTDOWN_DRAIN_MS: "0",
      PUBLIC_URL: `http://${hostname}:${port}`,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => logs.push(String(chunk)));
  child.stderr?.on("data", (chunk) => logs.push(String(chunk)));
  const url = `http://${hostname}:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join("")}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`server did not start:\n${logs.join("")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    dataDir,
    process: child,
    logs,
    async stop(options = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium unless CHROMIUM_PATH names another, with the flags every launch uses. */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export async function launchBrowser(): Promise<Browser> {
  // playwright-core gives each launch a fresh, empty profile directory of its own.
  return chromium.launch(CHROMIUM);
}

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Opens a page and waits until React has adopted it: a prerendered public page is on screen before its JavaScript
 * runs, and a click on one of its tabs or buttons before then does nothing.
 */
export async function openLive(page: Page, path: string, options?: Parameters<Page["goto"]>[1]): Promise<void> {
  await page.goto(path, options);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Signs in through the login form and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL("**/dashboard");
  await page.getByRole("heading", { name: "Dashboard", exact: true }).waitFor();
}

/**
 * As the signed-in verifier, from /verifications: starts verifying the milestone with this title. Returns its item
 * in the list and the verification dialog, open.
 */
export async function startVerification(page: Page, title: string) {
  await page.goto("/verifications");
  const item = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
  await item.getByRole("button", { name: "Start Verification" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Start Verification Process" }).click();
  await expectToast(page, "Verification started");
  return { item, dialog };
}

/**
 * As the signed-in verifier, from /verifications: starts verifying the milestone with this title, ticks the
 * checklist, uploads one evidence file and clicks Approve. Returns the verification dialog; whatever the approval
 * asks next (the second factor) is the caller's to answer.
 */
export async function startAndApprove(page: Page, title: string) {
  const { dialog } = await startVerification(page, title);
  for (const label of [
    "Documentation review complete",
    "Compliance with project standards verified",
    "Quality standards met",
  ]) {
    await dialog.getByLabel(label).check();
  }
  await dialog.getByRole("tab", { name: "Overview" }).click();
  await dialog
    .getByLabel("Upload Evidence")
    .setInputFiles([{ name: "inspection.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(20_000, 1) }]);
  await expectToast(page, "1 file(s) uploaded successfully");
  await dialog.getByRole("button", { name: "Approve" }).click();
  return dialog;
}

/**
 * Full-page by default; pass fullPage: false for overlays fixed to the viewport (drawers, dialogs). Screenshots are
 * for people to look at: CI, where nobody does, skips them (set SCREENSHOTS=1 to keep them there too).
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.CI && !process.env.SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: options.fullPage ?? true });
}

/**
 * Fails the first request whose URL `match` accepts with a 500 (a server error the app does not retry on its own),
 * then lets every later one through to the server. Returns a function that removes the route.
 */
export async function failFirstRequest(
  page: Page,
  match: (url: URL) => boolean,
  message = "The database is unavailable.",
): Promise<() => Promise<void>> {
  let failed = false;
  await page.route(match, async (route) => {
    if (failed) return route.continue();
    failed = true;
    await route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({ error: { code: "internal", message } }),
    });
  });
  return () => page.unroute(match);
}

/** Waits for a toast with this text (sonner renders them in a live region). */
export async function expectToast(page: Page, text: string): Promise<void> {
  await page.locator("[data-sonner-toast]").filter({ hasText: text }).first().waitFor({ timeout: 10_000 });
}
