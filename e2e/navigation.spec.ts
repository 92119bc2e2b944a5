// Issue 16 "Navigation": signed-in public pages lead back to the app, sign-in returns to the page asked for (same
// origin only), "Back to Dashboard" returns to the tab, each page titles itself, every role reaches its account.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

async function submitSignIn(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
}

async function firstMilestone(): Promise<{ id: string; title: string }> {
  const { context, page } = await suite.page();
  await signIn(page, DEMO.investor);
  const list = (
    (await (await page.request.get("/api/milestones?limit=100")).json()) as { items: { id: string; title: string }[] }
  ).items;
  await context.close();
  return list[0];
}

test.describe("navigation", () => {
  test("sign-in returns to the page that was asked for, and only to a page of this site", async () => {
    const milestone = await firstMilestone();
    const { context, page } = await suite.page();
    await page.goto(`/verify/${milestone.id}`);
    await page.getByRole("link", { name: "Sign in to view this milestone" }).click();
    await page.waitForURL(`**/login?next=${encodeURIComponent(`/milestones/${milestone.id}`)}`);
    await submitSignIn(page, DEMO.investor);
    await page.waitForURL(`**/milestones/${milestone.id}`);
    await expect(page.getByRole("heading", { name: milestone.title, level: 1 })).toBeVisible();
    await context.close();

    const direct = await suite.page();
    await direct.page.goto("/verifiers?from=link");
    await direct.page.waitForURL("**/login?next=*");
    await submitSignIn(direct.page, DEMO.investor);
    await direct.page.waitForURL("**/verifiers?from=link");
    await direct.context.close();

    for (const hostile of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"]) {
      const h = await suite.page();
      await h.page.goto(`/login?next=${encodeURIComponent(hostile)}`);
      await submitSignIn(h.page, DEMO.investor);
      await h.page.waitForURL("**/dashboard");
      expect(new URL(h.page.url()).origin).toBe(suite.app.url);
      await h.context.close();
    }
  });

  test("signed in, the public pages offer the Dashboard and name the user instead of Login and Get Started", async () => {
    for (const [viewport, name] of [
      [DESKTOP, "desktop"],
      [PHONE, "phone"],
    ] as const) {
      const { context, page } = await suite.page(viewport);
      await signIn(page, DEMO.owner);
      await page.goto("/pricing");
      if (name === "desktop") {
        const header = page.locator("header").first();
        await expect(header.getByRole("link", { name: "Dashboard" })).toBeVisible();
        await expect(header.getByText("Owen Adeyemi")).toBeVisible();
        await expect(header.getByRole("link", { name: /^(Login|Get Started|Request Demo)$/ })).toHaveCount(0);
        await screenshot(page, "public-signed-in-desktop", { fullPage: false });
        await header.getByRole("link", { name: "Dashboard" }).click();
      } else {
        await page.getByRole("button", { name: /menu/i }).first().click();
        const drawer = page.getByRole("dialog");
        await expect(drawer.getByText("Owen Adeyemi")).toBeVisible();
        await expect(drawer.getByRole("link", { name: /^(Log in|Get Started|Request Demo)$/ })).toHaveCount(0);
        await screenshot(page, "public-signed-in-phone", { fullPage: false });
        await drawer.getByRole("link", { name: "Dashboard" }).click();
      }
      await page.waitForURL("**/dashboard");
      await context.close();
    }
    // Signed out, the calls to action are still there.
    const { context, page } = await suite.page();
    await page.goto("/pricing");
    await expect(page.locator("header").first().getByRole("link", { name: "Get Started" })).toBeVisible();
    await context.close();
  });

  test("an owner who opens a page their navigation does not offer (/users, /verifiers) lands on the dashboard", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    for (const path of ["/users", "/verifiers"]) {
      await page.goto(path);
      await page.waitForURL("**/dashboard");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    }
    await context.close();
  });

  test("'Back to Dashboard' returns to the tab the user came from; every page has its own title", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await expect(page).toHaveTitle("Dashboard · Tranche");
    await page.getByRole("tab", { name: "Projects" }).click();
    await page.waitForURL("**/dashboard?tab=projects");
    const card = page.getByTestId("project-card").filter({ hasText: "Mojave Solar Farm Phase II" });
    await card.getByRole("link", { name: "View Details" }).click();
    await expect(page.getByRole("heading", { name: "Mojave Solar Farm Phase II", level: 1 })).toBeVisible();
    await expect(page).toHaveTitle("Mojave Solar Farm Phase II · Tranche");

    // A detour through a milestone and back keeps the way to the tab.
    await page.getByRole("tab", { name: "Milestones" }).click();
    await page.getByTestId("milestone-card").first().getByRole("link", { name: "View Details" }).click();
    await expect(page.getByRole("link", { name: "Back to Project" })).toBeVisible();
    await expect(page).toHaveTitle(/ · Mojave Solar Farm Phase II · Tranche$/);
    await page.getByRole("link", { name: "Back to Project" }).click();
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL("**/dashboard?tab=projects");
    await expect(page.getByRole("tab", { name: "Projects", exact: true })).toHaveAttribute("aria-selected", "true");

    for (const [path, title] of [
      ["/notifications", "Notifications · Tranche"],
      ["/projects", "Projects · Tranche"],
      ["/milestones", "Milestones · Tranche"],
      ["/account", "Account · Tranche"],
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page).toHaveTitle(title);
    }
    await context.close();
  });

  test("a project's open tab is in its URL: back from a milestone, a reload and a shared link open it again", async () => {
    for (const [viewport, name] of [
      [{ width: 1280, height: 800 }, "desktop"],
      [PHONE, "phone"],
    ] as const) {
      const { context, page } = await suite.page(viewport);
      await signIn(page, DEMO.owner);
      await page.goto("/projects");
      await page
        .getByTestId("project-card")
        .filter({ hasText: "Mojave Solar Farm Phase II" })
        .getByRole("link", { name: "View Details" })
        .click();
      await expect(page.getByRole("heading", { name: "Mojave Solar Farm Phase II", level: 1 })).toBeVisible();
      const milestonesTab = page.getByRole("tab", { name: "Milestones", exact: true });
      await milestonesTab.click();

      // The browser's back button, from a milestone opened on the tab, returns to the tab.
      await page.getByTestId("milestone-card").first().getByRole("link", { name: "View Details" }).click();
      await expect(page.getByRole("link", { name: "Back to Project" })).toBeVisible();
      await page.goBack();
      await expect(milestonesTab).toHaveAttribute("aria-selected", "true");
      await expect(page).toHaveURL(/\/projects\/[^/?]+\?tab=milestones$/);
      await expect(page.getByTestId("milestone-card").first()).toBeVisible();

      // So does the page's own "Back to Project": the milestone is one of the project's milestones.
      await page.getByTestId("milestone-card").first().getByRole("link", { name: "View Details" }).click();
      await page.getByRole("link", { name: "Back to Project" }).click();
      await expect(milestonesTab).toHaveAttribute("aria-selected", "true");
      await screenshot(page, `project-tab-in-url-${name}`);

      // A reload keeps the tab; Overview is the default and leaves no trace in the URL.
      await page.getByRole("tab", { name: "Finances" }).click();
      await page.waitForURL("**/projects/*?tab=finances");
      await page.reload();
      await expect(page.getByRole("tab", { name: "Finances" })).toHaveAttribute("aria-selected", "true");
      await expect(page.getByRole("heading", { name: "Disbursement Schedule" })).toBeVisible();
      await page.getByRole("tab", { name: "Overview" }).click();
      await expect(page).not.toHaveURL(/tab=/);
      await context.close();
    }
  });

  test("every role reaches change password from the sidebar or the phone menu", async () => {
    for (const email of Object.values(DEMO)) {
      const desktop = await suite.page(DESKTOP);
      await signIn(desktop.page, email);
      await desktop.page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "Account" }).click();
      await expect(desktop.page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
      await expect(desktop.page.getByLabel("Current password")).toBeVisible();
      await desktop.context.close();
    }
    const phone = await suite.page(PHONE);
    await signIn(phone.page, DEMO.verifier);
    await phone.page.getByRole("button", { name: /menu/i }).first().click();
    await phone.page.getByRole("dialog").getByRole("link", { name: "Account" }).click();
    await expect(phone.page.getByLabel("Current password")).toBeVisible();
    await screenshot(phone.page, "account-phone");
    await phone.context.close();
  });
});
