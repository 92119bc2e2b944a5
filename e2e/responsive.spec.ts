// Every signed-in screen each demo role can open fits a 390 px phone: the page never scrolls sideways (wide
// tables scroll inside their own container) and its heading is on screen. One viewport screenshot per screen.

import { expect, type Page, test } from "@playwright/test";
import { NAV_LINKS, type Role } from "@tranche/domain";
import { DEMO, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

const ROLES: { role: Role; email: string; name: string }[] = [
  { role: "investor", email: DEMO.investor, name: "investor" },
  { role: "project_owner", email: DEMO.owner, name: "owner" },
  { role: "verifier", email: DEMO.verifier, name: "verifier" },
  { role: "admin", email: DEMO.admin, name: "admin" },
];

/** Waits until no spinner or skeleton is left, then reports how wide the document is. */
async function settle(page: Page): Promise<void> {
  await expect(page.locator("main h1").first()).toBeVisible();
  await page.waitForFunction(() => document.querySelectorAll(".animate-spin, .animate-pulse").length === 0, null, {
    timeout: 10_000,
  });
}

async function expectFits(page: Page, shot: string, { showTab = false } = {}): Promise<void> {
  await settle(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${shot}: page is ${width}px wide`).toBeLessThanOrEqual(PHONE.width);
  await expect(page.locator("main h1").first()).toBeVisible();
  // A tab's content usually starts below the fold; bring the tab list up under the sticky header for the shot.
  if (showTab) {
    await page
      .locator("main [role=tablist]")
      .first()
      .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
  }
  await screenshot(page, `responsive-${shot}`, { fullPage: false });
}

/** Opens each tab of the page's first tab list (the page's own tabs, not nested ones) and checks each. */
async function eachTab(page: Page, shot: string): Promise<void> {
  const tabs = page.locator("main [role=tablist]").first().getByRole("tab");
  await expect(tabs.first()).toBeVisible();
  const names = (await tabs.allTextContents()).map((t) => t.trim());
  for (const [index, name] of names.entries()) {
    await tabs.nth(index).click();
    await page.waitForTimeout(150);
    await expectFits(page, `${shot}-${name.toLowerCase().replace(/\W+/g, "-")}`, { showTab: index > 0 });
  }
}

async function getJson<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const res = await fetch(p, { credentials: "include" });
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    return res.json();
  }, path);
}

test.describe("signed-in screens at phone width (390×844)", () => {
  for (const { role, email, name } of ROLES) {
    test(`${name}: every screen the role can open fits without sideways scroll`, async () => {
      const { context, page } = await suite.page(PHONE);
      await signIn(page, email);

      await eachTab(page, `${name}-dashboard`);

      await page.goto("/notifications");
      await expectFits(page, `${name}-notifications`);

      // Account and security (profile, password, second factor, passkeys, sessions): every role has one.
      await page.goto("/account");
      await expectFits(page, `${name}-account`);
      await page.getByRole("heading", { name: "Security" }).scrollIntoViewIfNeeded();
      await screenshot(page, `responsive-${name}-account-security`, { fullPage: false });

      for (const { to } of NAV_LINKS[role]) {
        await page.goto(to);
        await expectFits(page, `${name}-${to.slice(1)}`);
      }

      const { items: projects } = await getJson<{ items: { id: string }[] }>(page, "/api/projects");
      expect(projects.length).toBeGreaterThan(0);
      await page.goto(`/projects/${projects[0]?.id}`);
      await eachTab(page, `${name}-project`);

      // A milestone under review shows the most (checklist, actions); any milestone will do otherwise.
      const { items: milestones } = await getJson<{ items: { id: string; status: string }[] }>(
        page,
        "/api/milestones?limit=100",
      );
      const milestone = milestones.find((m) => m.status === "in_verification") ?? milestones[0];
      expect(milestone).toBeDefined();
      await page.goto(`/milestones/${milestone?.id}`);
      await eachTab(page, `${name}-milestone`);

      // The verifier's dialog (checklist, comments, decision buttons) must fit too.
      if (role === "verifier") {
        await page.getByRole("button", { name: "Continue Verification" }).click();
        const dialog = page.getByRole("dialog", { name: "Milestone Verification" });
        await dialog.getByRole("tab", { name: "Checklist" }).click();
        await expect(dialog.getByRole("button", { name: "Approve" })).toBeVisible();
        await page.waitForTimeout(300);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(PHONE.width);
        const box = await dialog.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
        await screenshot(page, `responsive-${name}-verification-dialog`, { fullPage: false });
      }

      await context.close();
    });
  }
});

/**
 * The words of `scope` that the browser broke across two lines (the body lets any word break rather than overflow);
 * a break after a word's own hyphen is an ordinary line break.
 */
async function brokenWords(page: Page, scope: string): Promise<string[]> {
  return page.locator(scope).evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of (node.textContent ?? "").matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1 && !word[0].includes("-")) broken.push(word[0]);
      }
    }
    return broken;
  });
}

test("the field view's bar keeps every word whole on 360 and 320 px phones", async () => {
  for (const width of [360, 320]) {
    const { context, page } = await suite.page({ width, height: 740 });
    await signIn(page, DEMO.verifier);
    await page.goto("/field");
    await expect(page.getByRole("heading", { name: "Your assignments" })).toBeVisible();
    expect(await brokenWords(page, "header"), `${width} px`).toEqual([]);
    // Under 380 px the way back is its arrow, still named for screen readers.
    await expect(page.getByRole("link", { name: "Dashboard" })).toBeVisible();
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(width);
    await screenshot(page, `responsive-field-${width}`, { fullPage: false });
    await context.close();
  }
});

test("an owner's project cards and figures keep every word whole on a 320 px phone", async () => {
  const { context, page } = await suite.page({ width: 320, height: 740 });
  await signIn(page, DEMO.owner);
  await expect(page.getByRole("list", { name: "Your projects" })).toBeVisible();
  expect(await brokenWords(page, "main"), "dashboard").toEqual([]);
  await page.goto("/projects");
  await expect(page.getByTestId("project-card").first()).toBeVisible();
  expect(await brokenWords(page, "main"), "projects").toEqual([]);
  await screenshot(page, "responsive-owner-projects-320", { fullPage: false });
  await context.close();
});
