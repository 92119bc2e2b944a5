// Lighthouse budgets for the public site, on the built app (run `npm run build` first; CI runs this):
// on /, /pricing and /case-studies, with Lighthouse's mobile profile (simulated slow 4G and a 4× slower CPU)
// and its desktop profile: performance ≥ 98 with LCP ≤ 1.8 s, accessibility 100, SEO 100.
// Performance is collected alone (collecting every category at once sometimes loses the navigation on the
// mobile profile). A shared 2-core machine is noisy: when a performance run misses its budget, two more are
// made and their median is judged.
// Run: node --import tsx bench/lighthouse.ts   (exits 1 when a budget is missed)
import { launch } from "chrome-launcher";
import lighthouse, { type Config, desktopConfig, type Flags } from "lighthouse";
import { startApp } from "../e2e/support/app";

const PAGES = ["/", "/pricing", "/case-studies"];
const PERFORMANCE_BUDGET = 0.98;
const LCP_BUDGET_MS = 1800;
const PROFILES: { name: string; config?: Config }[] = [{ name: "mobile" }, { name: "desktop", config: desktopConfig }];

interface Run {
  performance: number;
  lcpMs: number;
  tbtMs: number;
}

const app = await startApp({ DEMO_DATA: "false" });
const chrome = await launch({
  chromePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});

async function audit(url: string, categories: string[], config?: Config) {
  const flags: Flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories };
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags, config);
    const lhr = result?.lhr;
    if (lhr && !lhr.runtimeError && categories.every((c) => lhr.categories[c]?.score != null)) return lhr;
    if (attempt === 3) throw new Error(`Lighthouse could not audit ${url}: ${lhr?.runtimeError?.message}`);
  }
}

async function performanceRun(url: string, config?: Config): Promise<Run> {
  const lhr = await audit(url, ["performance"], config);
  return {
    performance: lhr.categories.performance.score ?? 0,
    lcpMs: lhr.audits["largest-contentful-paint"].numericValue ?? Number.POSITIVE_INFINITY,
    tbtMs: lhr.audits["total-blocking-time"].numericValue ?? Number.POSITIVE_INFINITY,
  };
}

const meets = (run: Run) => run.performance >= PERFORMANCE_BUDGET && run.lcpMs <= LCP_BUDGET_MS;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const failures: string[] = [];
try {
  for (const page of PAGES) {
    const url = `${app.url}${page}`;
    for (const profile of PROFILES) {
      let runs = [await performanceRun(url, profile.config)];
      if (!meets(runs[0]))
        runs = [...runs, await performanceRun(url, profile.config), await performanceRun(url, profile.config)];
      const judged: Run = {
        performance: median(runs.map((r) => r.performance)),
        lcpMs: median(runs.map((r) => r.lcpMs)),
        tbtMs: median(runs.map((r) => r.tbtMs)),
      };
      const other = await audit(url, ["accessibility", "seo"], profile.config);
      const accessibility = other.categories.accessibility.score ?? 0;
      const seo = other.categories.seo.score ?? 0;
      const runsNote =
        runs.length > 1
          ? ` (median of ${runs.length}: ${runs.map((r) => Math.round(r.performance * 100)).join(", ")})`
          : "";
      console.log(
        `${page.padEnd(14)} ${profile.name.padEnd(8)} performance ${Math.round(judged.performance * 100)}${runsNote}` +
          `  LCP ${Math.round(judged.lcpMs)} ms  TBT ${Math.round(judged.tbtMs)} ms` +
          `  accessibility ${Math.round(accessibility * 100)}  SEO ${Math.round(seo * 100)}`,
      );
      if (!meets(judged))
        failures.push(
          `${page} ${profile.name}: performance ${Math.round(judged.performance * 100)}, LCP ${Math.round(judged.lcpMs)} ms`,
        );
      if (accessibility < 1) failures.push(`${page} ${profile.name}: accessibility ${Math.round(accessibility * 100)}`);
      if (seo < 1) failures.push(`${page} ${profile.name}: SEO ${Math.round(seo * 100)}`);
    }
  }
} finally {
  chrome.kill();
  await app.stop();
}

if (failures.length > 0) {
  console.error(`\nFAILED: Lighthouse budgets missed:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log("\nOK: Lighthouse budgets met (performance ≥ 98, LCP ≤ 1.8 s, accessibility 100, SEO 100).");
