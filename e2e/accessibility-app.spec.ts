// The signed-in app against WCAG 2.1 A and AA (axe): every main page of each demo role, once its data has loaded,
// with no violation of any impact. The public pages are checked in public.spec.ts.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { DEMO, DESKTOP, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

/** Each role's main pages: the dashboard, its sidebar links, notifications, account, and one project and milestone. */
const PAGES: Record<keyof typeof DEMO, string[]> = {
  investor: ["/dashboard", "/projects", "/milestones", "/verifiers", "/reports", "/notifications", "/account"],
  owner: ["/dashboard", "/projects", "/milestones", "/notifications", "/account"],
  verifier: ["/dashboard", "/verifications", "/reports", "/notifications", "/account"],
  admin: ["/dashboard", "/users", "/projects", "/verifiers", "/settings", "/notifications", "/account"],
};

/** Waits until the page's heading is there and nothing in <main> is still loading. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator("main h1").first()).toBeVisible();
  await page.waitForFunction(
    () => !document.querySelector('main [aria-busy="true"], main .animate-pulse, main .animate-spin'),
  );
}

async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test.describe("signed-in pages pass axe (WCAG 2.1 A and AA)", () => {
  for (const role of Object.keys(PAGES) as (keyof typeof DEMO)[]) {
    test(`as the ${role}`, async () => {
      const { context, page } = await suite.page(DESKTOP);
      await signIn(page, DEMO[role]);
      const { items: projects } = await (await page.request.get("/api/projects?limit=1")).json();
      const paths = [...PAGES[role]];
      if (projects[0]) {
        paths.push(`/projects/${projects[0].id}`);
        const detail = await (await page.request.get(`/api/projects/${projects[0].id}`)).json();
        if (detail.milestones?.[0]) paths.push(`/milestones/${detail.milestones[0].id}`);
      }
      const failures: string[] = [];
      for (const path of paths) {
        await page.goto(path);
        await settled(page);
        for (const violation of await violations(page)) failures.push(`${path}: ${violation}`);
      }
      expect(failures).toEqual([]);
      await context.close();
    });
  }
});

test.describe("keyboard", () => {
  test("a dialog closed with Escape or Cancel gives focus back to the button that opened it", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.admin);
    await page.goto("/settings");
    for (const [opener, close] of [
      ["Add endpoint", "Escape"],
      ["Create token", "Cancel"],
      ["Revoke", "Escape"],
    ] as const) {
      const button = page.getByRole("button", { name: opener }).first();
      await button.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog").or(page.getByRole("alertdialog"));
      await expect(dialog).toBeVisible();
      // Focus moved into the dialog (the page behind is hidden from the accessibility tree meanwhile).
      await expect(dialog.locator(":focus")).toHaveCount(1);
      if (close === "Escape") await page.keyboard.press("Escape");
      else await dialog.getByRole("button", { name: close }).click();
      await expect(dialog).not.toBeAttached();
      await expect(button, `focus after closing the ${opener} dialog`).toBeFocused();
    }
    await context.close();
  });
});
