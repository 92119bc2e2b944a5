// One built server (a copy of the seeded demo data directory) for each test file, started before its tests and
// stopped after them, next to the worker's Chromium (Playwright's `browser` fixture, launched as the config says).
import { type Browser, type BrowserContext, type Page, test } from "@playwright/test";
import { DEMO_DATA_DIR_ENV, DESKTOP, newPage, type RunningApp, startApp } from "./app";

/** Use `suite.page()`, `suite.app` and `suite.browser` inside tests and hooks. */
export interface BrowserSuite {
  app: RunningApp;
  browser: Browser;
  /** A fresh browser context (desktop size unless told) on the suite's server. */
  page(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * Call once at the top of a test file. If a test fails, Playwright goes on with the file's next test in a new
 * worker: the hooks run again there, so those tests get a server of their own too.
 */
export function useBrowserSuite(
  env: Record<string, string> = {},
  hostname: "127.0.0.1" | "localhost" = "127.0.0.1",
): Readonly<BrowserSuite> {
  const suite = {
    page: (viewport = DESKTOP) => newPage(suite.browser, suite.app.url, viewport),
  } as BrowserSuite;
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    suite.browser = browser;
    suite.app = await startApp(env, process.env[DEMO_DATA_DIR_ENV], hostname);
  });
  test.afterAll(async () => {
    // The worker's browser outlives the file: close what its tests left open.
    await Promise.all(suite.browser?.contexts().map((context) => context.close()) ?? []);
    await suite.app?.stop();
  });
  return suite;
}
