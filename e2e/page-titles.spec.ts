// Each public page names itself: in the prerendered HTML (what a crawler, a bookmark or a tab sees before any
// JavaScript runs) and again after a navigation inside the app.
import { expect, test } from "@playwright/test";
import { DESKTOP, openLive } from "./support/app";
import { PUBLIC_PAGES } from "./support/public-pages";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("page titles", () => {
  test("every prerendered public page has a title of its own", async () => {
    const titles = new Map<string, string>();
    // A page with a parameter is not prerendered: it names itself once its JavaScript runs (the test below).
    for (const [path] of PUBLIC_PAGES.filter(([path]) => !path.startsWith("/verify/"))) {
      const html = await (await fetch(`${suite.app.url}${path}`)).text();
      const title = html.match(/<title>([^<]*)<\/title>/)?.[1] ?? "";
      expect(title, path).toMatch(/Tranche/);
      titles.set(path, title);
    }
    expect(new Set(titles.values()).size).toBe(titles.size);
    expect(titles.get("/pricing")).toBe("Pricing · Tranche");
  });

  test("sets the title on a navigation inside the app, public and signed-in pages alike", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await openLive(page, "/");
    await page.locator("header").getByRole("link", { name: "Pricing" }).click();
    await page.waitForURL("**/pricing");
    await page.waitForFunction(() => document.title === "Pricing · Tranche");
    await page.locator("header").getByRole("link", { name: "Login" }).click();
    await page.waitForFunction(() => document.title === "Sign in · Tranche");
    await page.goBack();
    await page.waitForFunction(() => document.title === "Pricing · Tranche");
    await openLive(page, "/verify/5f0c2a0e-8d1b-4c1e-9a55-0b7d2e4f6a11");
    await page.waitForFunction(() => document.title === "Milestone verification · Tranche");
    await context.close();
  });
});
