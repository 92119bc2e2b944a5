// The browser tests (e2e/*.spec.ts) under Playwright Test, in Debian's Chromium (or CHROMIUM_PATH's). Every file
// starts the built server on its own copy of a data directory seeded once by the global setup (see e2e/support).
import { defineConfig } from "@playwright/test";
import { CHROMIUM } from "./e2e/support/app";

const ci = Boolean(process.env.CI);

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/support/global-setup.ts",
  // Two files at a time, as on the 2-core CI machine: each runs its own server next to its browser.
  workers: 2,
  fullyParallel: false,
  forbidOnly: ci,
  // One retry in CI, and the report names every test that needed it (flaky); none here.
  retries: ci ? 1 : 0,
  // A whole scenario (several people signing in in turn, or nine pages each scanned by axe) ran past 90 s in a CI run
  // on a busy 2-core machine, every step within its own limit: this one only guards against a hang.
  timeout: 180_000,
  expect: { timeout: 15_000 },
  outputDir: "test-output/playwright",
  reporter: [[ci ? "dot" : "list"], ["json", { outputFile: "test-output/playwright.json" }]],
  use: {
    browserName: "chromium",
    launchOptions: CHROMIUM,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});
