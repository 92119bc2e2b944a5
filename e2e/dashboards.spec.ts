// Each demo role's Overview shows the figures the demo data implies (apps/server/src/seed.ts):
// verified releases USD 6M (Mojave 3M + Rural Clinics 3M) and EUR 2M (Harbor); pending or in verification
// USD 9M, EUR 2M, GBP 4M over 7 milestones; Harbor is the one at-risk project; Lisbon has no verifier.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

const card = (page: Page, name: string) => page.getByRole("group", { name, exact: true });

async function open(email: string, viewport = DESKTOP) {
  const session = await suite.page(viewport);
  await signIn(session.page, email);
  await expect(card(session.page, "Capital Protected")).toBeVisible();
  return session;
}

test.describe("role dashboards", () => {
  test("investor: the LP control centre over their four projects", async () => {
    const { context, page } = await open(DEMO.investor);
    await expect(card(page, "Capital Protected")).toContainText("$6M€2M");
    await expect(card(page, "Pending Verification")).toContainText("$9M€2M£4M");
    await expect(card(page, "Pending Verification")).toContainText("7 milestones pending");
    await expect(card(page, "Action Required")).toContainText("1 item");
    await expect(card(page, "Action Required")).toContainText("at-risk project");
    await expect(page.getByRole("heading", { name: "LP Control Centre" })).toBeVisible();
    await expect(card(page, "Capital Under Management")).toContainText("$15M€8.5M£5M");
    await expect(card(page, "Verified Disbursements")).toContainText("USD 40% · EUR 24% · GBP 0% of committed capital");
    await expect(card(page, "Pending Review")).toContainText("7");
    await expect(card(page, "Risk Alerts")).toContainText("1");
    const portfolio = page.getByRole("list", { name: "Portfolio" }).getByRole("listitem");
    await expect(portfolio).toHaveCount(4);
    const upcoming = page.getByRole("list", { name: "Upcoming milestones" }).getByRole("listitem");
    await expect(upcoming).toHaveCount(3);
    await expect(upcoming.first()).toContainText("Panel and inverter delivery");
    await screenshot(page, "dashboard-investor-desktop");
    await context.close();
  });

  test("owner: their five projects, value, funding and amber upcoming milestones", async () => {
    const { context, page } = await open(DEMO.owner);
    await expect(card(page, "Action Required")).toContainText("1 item");
    await expect(card(page, "Action Required")).toContainText("rejected milestone to revise");
    await expect(card(page, "Total Projects")).toContainText("5");
    await expect(card(page, "Total Project Value")).toContainText("$15M€12.7M£5M");
    const projects = page.getByRole("list", { name: "Your projects" }).getByRole("listitem");
    await expect(projects).toHaveCount(5);
    const upcoming = page.getByRole("list", { name: "Upcoming milestones" }).getByRole("listitem");
    // The rejected milestone first, marked, then the next five due.
    await expect(upcoming).toHaveCount(6);
    await expect(upcoming.first()).toContainText("Needs resubmission");
    await expect(upcoming.first()).toContainText("Structural frame, block A");
    await expect(page.locator('[data-attention="Needs resubmission"]')).toHaveCount(1);
    // Due in 2 and 10 days: highlighted amber; the rest are further out.
    await expect(page.locator("[data-due-soon]")).toHaveCount(2);
    await screenshot(page, "dashboard-owner-desktop");
    await context.close();
  });

  test("verifier: the overview counts what waits on them", async () => {
    const { context, page } = await open(DEMO.verifier);
    await expect(card(page, "Capital Protected")).toContainText("$6M€2M");
    await expect(card(page, "Pending Verification")).toContainText("4 milestones pending");
    // One definition: what waits on the verifier is the same figure here, on /verifications and in its cards.
    await expect(card(page, "Action Required")).toContainText("4 items");
    // Below the cards, the verification feature's own dashboard (the verifier's live queue).
    await expect(page.getByRole("tab", { name: "Pending" })).toBeVisible();
    await screenshot(page, "dashboard-verifier-desktop");
    await context.close();
  });

  test("admin: platform totals, milestone statuses, recent projects and the verifiers directory", async () => {
    const { context, page } = await open(DEMO.admin);
    await expect(card(page, "Action Required")).toContainText("1 item");
    await expect(card(page, "Action Required")).toContainText("project without a verifier");
    await expect(card(page, "Total Projects")).toContainText("5");
    await expect(card(page, "Total Users")).toContainText("6");
    await expect(card(page, "Verifiers")).toContainText("3");
    const counts = { pending: 6, in_verification: 2, verified: 4, rejected: 1, delayed: 1 };
    for (const [status, count] of Object.entries(counts)) {
      await expect(page.getByTestId(`milestones-${status}`).locator("dd")).toHaveText(String(count));
    }
    await expect(page.getByRole("list", { name: "Recent projects" }).getByRole("listitem")).toHaveCount(5);
    const directory = page.getByRole("list", { name: "Verifiers directory" }).getByRole("listitem");
    await expect(directory).toHaveCount(3);
    await expect(directory.first()).toContainText("Sofia Reyes");
    await screenshot(page, "dashboard-admin-desktop");
    await context.close();
  });

  test("fits a phone", async () => {
    for (const [email, name] of [
      [DEMO.investor, "investor"],
      [DEMO.owner, "owner"],
      [DEMO.admin, "admin"],
    ] as const) {
      const { context, page } = await open(email, PHONE);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `dashboard-${name}-phone`);
      await context.close();
    }
  });
});
