// The public site claims only what was measured: every percentage on /ai-verification and /roadmap must be a figure
// of the committed evidence-checks bench result (bench/results/evidence-checks.json), and the date the page gives
// must be that run's. Re-running the bench without updating the page (or the other way round) fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
const PAGES = ["apps/web/src/app/routes/public/ai-verification.tsx", "apps/web/src/app/routes/public/roadmap.tsx"];

/** Every rate of the result (a number from 0 to 1 under a key that is not a count), as the percentages it may be shown as. */
function measuredPercentages(result: unknown): Set<string> {
  const shown = new Set<string>();
  const visit = (value: unknown, key: string) => {
    if (typeof value === "number" && value >= 0 && value <= 1 && !/seconds|files|fieldsRead|mean|p95|max/i.test(key)) {
      const percent = value * 100;
      shown.add(percent.toFixed(1).replace(/\.0$/, ""));
      shown.add(percent.toFixed(0));
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) visit(v, `${key}.${k}`);
    }
  };
  visit(result, "");
  return shown;
}

describe("public claims", () => {
  const result = JSON.parse(read("bench/results/evidence-checks.json"));
  const allowed = measuredPercentages(result);

  it.each(PAGES)("%s states no percentage the evidence bench did not measure", (page) => {
    const source = read(page);
    const figures = [...source.matchAll(/(\d+(?:\.\d+)?)\s?%/g)].map((m) => m[1]);
    const unmeasured = figures.filter((figure) => !allowed.has(figure));
    expect(unmeasured, `measured: ${[...allowed].join(", ")}`).toEqual([]);
  });

  it("gives the date of the committed bench run, from the full corpus", () => {
    expect(result.slice).toBe(false);
    const page = read(PAGES[0]);
    expect(page).toContain(`MEASURED_ON = "${result.measuredAt.slice(0, 10)}"`);
    expect(page).toContain(`${result.files} files`);
  });

  it("calls smart contract disbursements what they are: roadmap", () => {
    const page = read(PAGES[0]);
    expect(page).toContain("On the roadmap, not built yet");
    expect(page).not.toMatch(/smart contract disbursements are included/i);
    expect(read("apps/web/src/app/routes/public/roadmap.tsx")).toMatch(/Planned[\s\S]*Smart contract disbursements/);
  });
});
