// Runs once before the browser test files: starts the built server on a fresh data directory so that it
// migrates and seeds the demo data, stops it, and hands that directory to every test file to start from a copy.
import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { startApp } from "./app";

export default async function setup(project: TestProject): Promise<() => void> {
  const app = await startApp({ DEMO_DATA: "true" });
  await app.stop({ keepDataDir: true });
  project.provide("demoDataDir", app.dataDir);
  return () => rmSync(app.dataDir, { recursive: true, force: true });
}
