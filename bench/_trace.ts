import { DEMO, launchBrowser, signIn, startApp } from "../e2e/support/app";
const app = await startApp({ DEMO_DATA: "true" });
const browser = await launchBrowser();
try {
  for (const [role, path] of [["owner", "/dashboard"], ["owner", "/projects"], ["investor", "/reports"]] as const) {
    const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await signIn(page, DEMO[role]);
    for (let i = 0; i < 3; i++) {
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    const entries = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const res = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).map((r) => [
        r.name.replace(location.origin, ""), Math.round(r.startTime), Math.round(r.responseEnd), r.initiatorType,
      ]);
      const h1 = document.querySelector("h1")?.textContent;
      return { nav: [Math.round(nav.responseEnd), Math.round(nav.domContentLoadedEventEnd)], res, h1 };
    });
    console.log(role, path, JSON.stringify(entries.nav));
    for (const r of entries.res) console.log("  ", r.join("  "));
    await context.close();
  }
} finally {
  await browser.close();
  await app.stop();
}
