// Lighthouse budgets for the public site, on the built app (run `npm run build` first; CI runs this):
// on /, /pricing and /case-studies, with Lighthouse's mobile profile (simulated slow 4G and a mid-tier phone's CPU)
// and its desktop profile: performance ≥ 98 with LCP ≤ 1.8 s, accessibility 100, SEO 100.
// The phone's CPU is the host's slowed down. Lighthouse's stock 4× assumes a host at least in its "high-end desktop"
// bracket (benchmarkIndex 1500 and up; Lighthouse's docs/throttling.md, "Calibrating the CPU slowdown"): on a slower
// or busier host the same 4× would emulate a slower phone than the profile means. So the slowdown is calibrated as
// those docs advise, in proportion to the host's benchmarkIndex as Lighthouse itself measures it (the median of the
// last three runs), and never above the stock 4×: a host at 1500 or more is judged exactly as stock Lighthouse judges.
// Performance is collected alone (collecting every category at once sometimes loses the navigation on the
// mobile profile). On a shared 2-core machine the same page's blocking time varies several-fold from run to run
// (50 to 640 ms here): interference only ever adds time, so, as Lighthouse CI asserts by default ("optimistic"
// aggregation), a page meets its budget when one of up to five runs does. A page that really got slower misses in
// every run: a 40 ms task in the landing page's hydration, since removed, kept "/" at 82 to 94 in six runs out of six.
// Each performance run also waits (up to 30 s) for the host to be nearly idle: in a CI run whose browser tests had
// just ended, "/" scored 82 to 95 (blocking time 263 ms at best) where a quiet host gives 100 (7 ms). A run that
// still starts on a busy host says so, with the processes that kept it busy.
// Run: node --import tsx bench/lighthouse.ts   (exits 1 when a budget is missed)
import { launch } from "chrome-launcher";
import lighthouse, { type Config, desktopConfig, type Flags } from "lighthouse";
import { startApp } from "../e2e/support/app";
import { waitForQuietHost } from "./support";

const PAGES = ["/", "/pricing", "/case-studies"];
const PERFORMANCE_BUDGET = 0.98;
const LCP_BUDGET_MS = 1800;
const PROFILES: { name: string; config?: Config }[] = [{ name: "mobile" }, { name: "desktop", config: desktopConfig }];
const STOCK_SLOWDOWN = 4;
const STOCK_HOST_INDEX = 1500;

interface Run {
  slowdown: number;
  performance: number;
  lcpMs: number;
  tbtMs: number;
  /** What kept the host busy when the run started, when it did not quiet down in time. */
  busyHost?: string;
}

const app = await startApp({ DEMO_DATA: "false" });
const chrome = await launch({
  chromePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});

/** The host's benchmarkIndex in Lighthouse's recent runs, newest last. */
const hostIndexes: number[] = [];
const hostIndex = () => median(hostIndexes.slice(-3));
/** The mobile profile's CPU slowdown on this host now (desktop runs are not slowed). */
const mobileSlowdown = () =>
  Math.round(Math.min(STOCK_SLOWDOWN, Math.max(1, (STOCK_SLOWDOWN * hostIndex()) / STOCK_HOST_INDEX)) * 100) / 100;

async function audit(url: string, categories: string[], config?: Config) {
  const flags: Flags = {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: categories,
    ...(config ? {} : { throttling: { cpuSlowdownMultiplier: mobileSlowdown() } }),
  };
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags, config);
    const lhr = result?.lhr;
    if (lhr?.environment.benchmarkIndex) hostIndexes.push(lhr.environment.benchmarkIndex);
    if (lhr && !lhr.runtimeError && categories.every((c) => lhr.categories[c]?.score != null)) return lhr;
    if (attempt === 3) throw new Error(`Lighthouse could not audit ${url}: ${lhr?.runtimeError?.message}`);
  }
}

async function performanceRun(url: string, config?: Config): Promise<Run> {
  const host = await waitForQuietHost(30_000);
  const busyHost =
    host.busy >= 0.15
      ? `${Math.round(host.busy * 100)}% busy (${host.busiest.join(", ") || "no one process"})`
      : undefined;
  const lhr = await audit(url, ["performance"], config);
  return {
    busyHost,
    slowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier ?? 1,
    performance: lhr.categories.performance.score ?? 0,
    lcpMs: lhr.audits["largest-contentful-paint"].numericValue ?? Number.POSITIVE_INFINITY,
    tbtMs: lhr.audits["total-blocking-time"].numericValue ?? Number.POSITIVE_INFINITY,
  };
}

const RUNS = 5;
const meets = (run: Run) => run.performance >= PERFORMANCE_BUDGET && run.lcpMs <= LCP_BUDGET_MS;
/** The run most likely to pass: the best score, then the earliest LCP. */
const best = (runs: Run[]) =>
  [...runs].sort(
    (a, b) => Number(meets(b)) - Number(meets(a)) || b.performance - a.performance || a.lcpMs - b.lcpMs,
  )[0];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const failures: string[] = [];
try {
  // Three runs measure the host before the first mobile run is slowed for it.
  for (let i = 0; i < 3; i++) await audit(`${app.url}/`, ["performance"], desktopConfig);
  console.log(
    `host benchmarkIndex ${Math.round(hostIndex())} (${hostIndexes.map(Math.round).join(", ")}): ` +
      `mobile CPU slowdown ${mobileSlowdown()}× (stock ${STOCK_SLOWDOWN}× from ${STOCK_HOST_INDEX} up)`,
  );
  for (const page of PAGES) {
    const url = `${app.url}${page}`;
    for (const profile of PROFILES) {
      const runs: Run[] = [];
      while (runs.length < RUNS && !runs.some(meets)) runs.push(await performanceRun(url, profile.config));
      const judged = best(runs);
      const other = await audit(url, ["accessibility", "seo"], profile.config);
      const accessibility = other.categories.accessibility.score ?? 0;
      const seo = other.categories.seo.score ?? 0;
      const runsNote =
        runs.length > 1
          ? ` (best of ${runs.length}: ${runs.map((r) => Math.round(r.performance * 100)).join(", ")})`
          : "";
      console.log(
        `${page.padEnd(14)} ${profile.name.padEnd(8)} performance ${Math.round(judged.performance * 100)}${runsNote}` +
          `  LCP ${Math.round(judged.lcpMs)} ms  TBT ${Math.round(judged.tbtMs)} ms  CPU ${judged.slowdown}×` +
          `  accessibility ${Math.round(accessibility * 100)}  SEO ${Math.round(seo * 100)}`,
      );
      for (const run of runs.filter((r) => r.busyHost))
        console.log(`${"".padEnd(24)}a run started on a busy host: ${run.busyHost}`);
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
