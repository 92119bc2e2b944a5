// Prints the one closing line CI reads ("N passed, N failed") from Vitest's and Playwright's JSON reports added
// together, with the names of the failing tests (and of the flaky ones, passed on a retry) above it.
// Usage: node scripts/test-summary.mjs [test-output/vitest.json] [test-output/playwright.json]
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const files =
  process.argv.length > 2 ? process.argv.slice(2) : ["test-output/vitest.json", "test-output/playwright.json"];
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
const flaky = [];

function vitest(report) {
  // A file that failed without a failing test (it did not load, or a hook failed) counts once; describe blocks are
  // not counted (the report's numFailedTestSuites counts them too).
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const result of report.testResults ?? []) {
    const name = path.relative(process.cwd(), result.name);
    const tests = (result.assertionResults ?? []).filter((test) => test.status === "failed");
    if (result.status === "failed" && tests.length === 0) {
      failed += 1;
      failures.push(`${name}: ${result.message ?? ""}`);
    }
    for (const test of tests) failures.push(`${name} > ${test.fullName}`);
  }
}

function playwright(report) {
  const { expected = 0, unexpected = 0, flaky: retried = 0, skipped: notRun = 0 } = report.stats ?? {};
  passed += expected + retried;
  failed += unexpected + (report.errors?.length ?? 0);
  skipped += notRun;
  // Top-level suites are the files (their title is the file's name); below them, describe blocks and tests.
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      const name = `e2e/${spec.file} > ${[...trail, spec.title].join(" > ")}`;
      for (const test of spec.tests ?? []) {
        if (test.status === "unexpected") failures.push(name);
        if (test.status === "flaky") flaky.push(name);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const error of report.errors ?? []) failures.push(`(playwright) ${(error.message ?? "error").split("\n")[0]}`);
}

for (const file of files) {
  if (!existsSync(file)) {
    failed += 1;
    failures.push(`${file}: no report`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  if (report.config && report.suites) playwright(report);
  else vitest(report);
}

for (const name of flaky) console.log(`FLAKY (passed on its retry) ${name}`);
for (const name of failures) console.log(`FAILED ${name}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
