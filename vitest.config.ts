import { defineConfig } from "vitest/config";

// *.pg.test.ts files run only in the PostgreSQL suite: they need a server (several processes on one database), or,
// like the robustness sweep, check what does not depend on the engine and are too slow to run twice.
const serverProject = (name: string, db: "pglite" | "pg") => ({
  test: {
    name,
    include: ["apps/server/test/**/*.test.ts"],
    exclude: db === "pglite" ? ["apps/server/test/**/*.pg.test.ts"] : [],
    env: { TEST_DB: db },
    // Two files at a time: much of a server test waits on its database or on timers, so the second core is not
    // idle (the default on a 2-core machine is one file at a time).
    maxWorkers: 2,
    // A worker runs its files one after another in one module graph instead of importing the whole app afresh for
    // each (226 s of imports summed over the files, 20 s shared; the suite 639 → 407 s). Nothing a file does can
    // reach the next one's: each builds its own app on its own database (harness.ts), and no test mocks or stubs
    // a module or the environment.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

// The PostgreSQL server suite runs when TEST_DATABASE_URL names one (CI and this machine set it).
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

// The browser tests (e2e/*.spec.ts) are Playwright's: see playwright.config.ts.
export default defineConfig({
  test: {
    projects: [
      // Projects that run together must share one worker limit.
      { test: { name: "domain", include: ["packages/domain/test/**/*.test.ts"], maxWorkers: 2 } },
      serverProject("server-pglite", "pglite"),
      ...(withPostgres ? [serverProject("server-pg", "pg")] : []),
    ],
  },
});
