// The prerendered public site in Chromium: content without JavaScript, then hydration in place (no console
// errors, no layout shift, interactive, client-side navigation), and no toaster code on static pages.
import { expect, test } from "@playwright/test";
import { PHONE, screenshot } from "./support/app";
import { PUBLIC_PAGES } from "./support/public-pages";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();
const WIDE = { width: 1280, height: 900 };
const heading = (path: string) => PUBLIC_PAGES.find(([p]) => p === path)?.[1] as string;

test.describe("with JavaScript disabled", () => {
  for (const [name, viewport] of [
    ["desktop", WIDE],
    ["phone", PHONE],
  ] as const) {
    test(`shows each public page's content at ${name} width`, async () => {
      const context = await suite.browser.newContext({ baseURL: suite.app.url, viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      try {
        for (const path of ["/", "/pricing", "/case-studies", "/contact"]) {
          await page.goto(path);
          await expect(page.getByRole("heading", { level: 1, name: heading(path) })).toBeVisible();
          await expect(page.getByRole("contentinfo")).toBeVisible();
          await screenshot(page, `no-js-${path === "/" ? "home" : path.slice(1)}-${name}`, { fullPage: false });
        }
        // The landing page's sections are all there, not only its hero.
        await page.goto("/");
        await expect(page.getByRole("button", { name: "Does Tranche hold or move our money?" })).toBeVisible();
        await expect(page.getByRole("link", { name: "Pricing" }).first()).toHaveAttribute("href", "/pricing");
      } finally {
        await context.close();
      }
    });
  }
});

test.describe("with JavaScript", () => {
  const errors: string[] = [];
  const requests: string[] = [];
  let context: Awaited<ReturnType<typeof suite.page>>["context"];
  let page: Awaited<ReturnType<typeof suite.page>>["page"];
  test.beforeAll(async () => {
    ({ context, page } = await suite.page(WIDE));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));
    // Layout shifts from the first byte on, and every element hydration removes from the prerendered page
    // (React adopting the HTML removes none; rendering it again would replace it all).
    await page.addInitScript(() => {
      const w = window as unknown as { __shift: number; __removed: string[] };
      w.__shift = 0;
      w.__removed = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) w.__shift += entry.value;
      }).observe({ type: "layout-shift", buffered: true });
      document.addEventListener("DOMContentLoaded", () => {
        const root = document.getElementById("root");
        if (!root) return;
        new MutationObserver((records) => {
          for (const record of records) {
            for (const node of record.removedNodes) if (node.nodeType === 1) w.__removed.push(node.nodeName);
          }
        }).observe(root, { childList: true, subtree: true });
      });
    });
  });
  test.afterAll(() => context?.close());

  for (const path of ["/", "/pricing", "/case-studies", "/contact"]) {
    test(`${path} hydrates without console errors or layout shift`, async () => {
      errors.length = 0;
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      expect(errors).toEqual([]);
      const { shift, removed } = await page.evaluate(() => {
        const w = window as unknown as { __shift: number; __removed: string[] };
        return { shift: w.__shift, removed: w.__removed };
      });
      expect(removed).toEqual([]);
      // Hydration moves nothing; a web font arriving after the first paint may nudge a line (well under 0.01 here).
      expect(shift).toBeLessThanOrEqual(0.01);
      await expect(page.getByRole("heading", { level: 1, name: heading(path) })).toBeVisible();
    });
  }

  test("is interactive after hydration, and links navigate in the page without reloading it", async () => {
    requests.length = 0;
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const question = page.getByRole("button", { name: "Who are the verifiers, and who chooses them?" });
    await expect(question).toHaveAttribute("aria-expanded", "false");
    await question.click();
    await expect(question).toHaveAttribute("aria-expanded", "true");
    // Static pages never load the toaster: only screens that talk to the server raise toasts.
    expect(requests.filter((p) => /\/toaster-[\w-]+\.js$/.test(p))).toEqual([]);

    await page.evaluate(() => {
      (window as unknown as { __samePage: boolean }).__samePage = true;
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
    await expect(page.getByRole("heading", { level: 1, name: heading("/pricing") })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(errors).toEqual([]);
  });

  test("keeps the reader's scroll position when the page hydrates", async () => {
    const slow = await suite.page(PHONE);
    try {
      // The scripts arrive well after the HTML, so the reader can scroll before hydration.
      await slow.page.route("**/assets/*.js", async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await slow.page.goto("/", { waitUntil: "domcontentloaded" });
      await slow.page.evaluate(() => window.scrollTo(0, 1200));
      await slow.page.waitForLoadState("networkidle");
      await slow.page.waitForTimeout(300);
      expect(await slow.page.evaluate(() => window.scrollY)).toBe(1200);
      // The phone menu works once the page has hydrated.
      await slow.page.getByRole("button", { name: "Open menu" }).click();
      await expect(slow.page.getByRole("dialog", { name: "Menu" })).toBeVisible();
    } finally {
      await slow.context.close();
    }
  });

  test("keeps what a visitor typed into a prerendered form before it hydrated, and sends it", async () => {
    const slow = await suite.page();
    try {
      await slow.page.route("**/assets/*.js", async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await slow.page.goto("/become-verifier", { waitUntil: "domcontentloaded" });
      const apply = slow.page.getByRole("button", { name: "Apply to become a verifier" });
      // Not live yet: a submit now would be a plain GET with the visitor's details in the address bar.
      await expect(apply).toBeDisabled();
      await slow.page.getByLabel("Full name").fill("Ama Owusu");
      await slow.page.getByLabel("Email", { exact: true }).fill("ama.owusu@example.test");
      await slow.page.getByLabel(/Your expertise/).fill("Quantity surveyor, 9 years on hospital builds.");
      await slow.page.waitForLoadState("networkidle");
      await expect(slow.page.getByLabel("Full name")).toHaveValue("Ama Owusu");
      await apply.click();
      await expect(
        slow.page.getByRole("status").filter({
          hasText: "Thanks for your interest! We'll contact you shortly about becoming a verified partner.",
        }),
      ).toBeVisible();
      expect(slow.page.url()).not.toContain("?");
    } finally {
      await slow.context.close();
    }
  });
});
