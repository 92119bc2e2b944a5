// Prints the one closing line CI reads ("N passed, N failed") from Vitest's JSON report.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const file = process.argv[2] ?? "test-output/vitest.json";
if (!existsSync(file)) {
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, "utf8"));
// The failures by name, so a red run's last lines say what to look at. A file that failed without a failing test
// (it did not load, or a hook failed) counts once; describe blocks are not counted (the report's numFailedTestSuites
// counts them too).
let failedFiles = 0;
for (const result of report.testResults ?? []) {
  const name = path.relative(process.cwd(), result.name);
  const failures = (result.assertionResults ?? []).filter((a) => a.status === "failed");
  if (result.status === "failed" && failures.length === 0) {
    failedFiles += 1;
    console.log(`FAILED ${name}: ${result.message ?? ""}`);
  }
  for (const a of failures) console.log(`FAILED ${name} > ${a.fullName}`);
}
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + failedFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
