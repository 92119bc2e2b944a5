// Each demo role's Overview shows the figures the demo data implies (apps/server/src/seed.ts):
// verified releases USD 6M (Mojave 3M + Rural Clinics 3M) and EUR 2M (Harbor); pending or in verification
// USD 9M, EUR 2M, GBP 4M over 7 milestones; Harbor is the one at-risk project; Lisbon has no verifier.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/vitest-suite";

const suite = useBrowserSuite();

const card = (page: Page, name: string) => page.getByRole("group", { name, exact: true });
const text = async (page: Page, name: string) => (await card(page, name).textContent())?.replace(/\s+/g, " ") ?? "";

async function open(email: string, viewport = DESKTOP) {
  const session = await suite.page(viewport);
  await signIn(session.page, email);
  await card(session.page, "Capital Protected").waitFor();
  return session;
}

describe("role dashboards", () => {
  it("investor: the LP control centre over their four projects", async () => {
    const { context, page } = await open(DEMO.investor);
    expect(await text(page, "Capital Protected")).toContain("$6M€2M");
    expect(await text(page, "Pending Verification")).toContain("$9M€2M£4M");
    expect(await text(page, "Pending Verification")).toContain("7 milestones pending");
    expect(await text(page, "Action Required")).toContain("1 item");
    expect(await text(page, "Action Required")).toContain("at-risk project");
    await page.getByRole("heading", { name: "LP Control Centre" }).waitFor();
    expect(await text(page, "Capital Under Management")).toContain("$15M€8.5M£5M");
    expect(await text(page, "Verified Disbursements")).toContain("USD 40% · EUR 24% · GBP 0% of committed capital");
    expect(await text(page, "Pending Review")).toContain("7");
    expect(await text(page, "Risk Alerts")).toContain("1");
    const portfolio = page.getByRole("list", { name: "Portfolio" }).getByRole("listitem");
    expect(await portfolio.count()).toBe(4);
    const upcoming = page.getByRole("list", { name: "Upcoming milestones" }).getByRole("listitem");
    expect(await upcoming.count()).toBe(3);
    expect(await upcoming.first().textContent()).toContain("Panel and inverter delivery");
    await screenshot(page, "dashboard-investor-desktop");
    await context.close();
  });

  it("owner: their five projects, value, funding and amber upcoming milestones", async () => {
    const { context, page } = await open(DEMO.owner);
    expect(await text(page, "Action Required")).toContain("1 item");
    expect(await text(page, "Action Required")).toContain("rejected milestone to revise");
    expect(await text(page, "Total Projects")).toContain("5");
    expect(await text(page, "Total Project Value")).toContain("$15M€12.7M£5M");
    const projects = page.getByRole("list", { name: "Your projects" }).getByRole("listitem");
    expect(await projects.count()).toBe(5);
    const upcoming = page.getByRole("list", { name: "Upcoming milestones" }).getByRole("listitem");
    // The rejected milestone first, marked, then the next five due.
    expect(await upcoming.count()).toBe(6);
    expect(await upcoming.first().textContent()).toContain("Needs resubmission");
    expect(await upcoming.first().textContent()).toContain("Structural frame, block A");
    expect(await page.locator('[data-attention="Needs resubmission"]').count()).toBe(1);
    // Due in 2 and 10 days: highlighted amber; the rest are further out.
    expect(await page.locator("[data-due-soon]").count()).toBe(2);
    await screenshot(page, "dashboard-owner-desktop");
    await context.close();
  });

  it("verifier: the overview counts what waits on them", async () => {
    const { context, page } = await open(DEMO.verifier);
    expect(await text(page, "Capital Protected")).toContain("$6M€2M");
    expect(await text(page, "Pending Verification")).toContain("4 milestones pending");
    // One definition: what waits on the verifier is the same figure here, on /verifications and in its cards.
    expect(await text(page, "Action Required")).toContain("4 items");
    // Below the cards, the verification feature's own dashboard (the verifier's live queue).
    await page.getByRole("tab", { name: "Pending" }).waitFor();
    await screenshot(page, "dashboard-verifier-desktop");
    await context.close();
  });

  it("admin: platform totals, milestone statuses, recent projects and the verifiers directory", async () => {
    const { context, page } = await open(DEMO.admin);
    expect(await text(page, "Action Required")).toContain("1 item");
    expect(await text(page, "Action Required")).toContain("project without a verifier");
    expect(await text(page, "Total Projects")).toContain("5");
    expect(await text(page, "Total Users")).toContain("6");
    expect(await text(page, "Verifiers")).toContain("3");
    const counts = { pending: 6, in_verification: 2, verified: 4, rejected: 1, delayed: 1 };
    for (const [status, count] of Object.entries(counts)) {
      expect(await page.getByTestId(`milestones-${status}`).locator("dd").textContent()).toBe(String(count));
    }
    expect(await page.getByRole("list", { name: "Recent projects" }).getByRole("listitem").count()).toBe(5);
    const directory = page.getByRole("list", { name: "Verifiers directory" }).getByRole("listitem");
    expect(await directory.count()).toBe(3);
    expect(await directory.first().textContent()).toContain("Sofia Reyes");
    await screenshot(page, "dashboard-admin-desktop");
    await context.close();
  });

  it("fits a phone", async () => {
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
