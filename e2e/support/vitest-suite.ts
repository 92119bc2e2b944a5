// The vitest side of the browser tests, for the files not yet moved to Playwright (see suite.ts).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { DESKTOP, launchBrowser, newPage, type RunningApp, startApp } from "./app";

declare module "vitest" {
  export interface ProvidedContext {
    /** A data directory the server has already seeded with demo data (see global-setup.ts). */
    demoDataDir: string;
  }
}

/**
 * One built server (fresh data directory, demo data) and one Chromium for a test file: started before its
 * tests, stopped after them. Use `suite.page()`, `suite.app` and `suite.browser` inside tests and hooks.
 */
export interface BrowserSuite {
  app: RunningApp;
  browser: Browser;
  /** A fresh browser context (desktop size unless told) on the suite's server. */
  page(viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }>;
}

export function useBrowserSuite(
  env: Record<string, string> = {},
  hostname: "127.0.0.1" | "localhost" = "127.0.0.1",
): Readonly<BrowserSuite> {
  const suite = {
    page: (viewport = DESKTOP) => newPage(suite.browser, suite.app.url, viewport),
  } as BrowserSuite;
  beforeAll(async () => {
    [suite.app, suite.browser] = await Promise.all([startApp(env, inject("demoDataDir"), hostname), launchBrowser()]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.app?.stop();
  });
  return suite;
}
