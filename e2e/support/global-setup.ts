// Runs once before the browser test files: starts the built server on a fresh data directory so that it
// migrates and seeds the demo data, stops it, and hands that directory to every test file (through the
// environment the workers inherit) to start from a copy.
import { rmSync } from "node:fs";
import { DEMO_DATA_DIR_ENV, startApp } from "./app";

export default async function globalSetup(): Promise<() => void> {
  const app = await startApp({ DEMO_DATA: "true" });
  await app.stop({ keepDataDir: true });
  process.env[DEMO_DATA_DIR_ENV] = app.dataDir;
  return () => rmSync(app.dataDir, { recursive: true, force: true });
}
