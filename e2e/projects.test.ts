import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/vitest-suite";

const suite = useBrowserSuite();

const isoDay = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

async function openProjectsTab(page: Page) {
  await page.getByRole("tab", { name: "Projects" }).click();
  await page.getByText("Project Management").waitFor();
  await page.getByTestId("project-card").first().waitFor();
}

function card(page: Page, name: string) {
  return page.getByTestId("project-card").filter({ has: page.getByRole("heading", { name }) });
}

async function openProject(page: Page, name: string) {
  await openProjectsTab(page);
  await card(page, name).getByRole("link", { name: "View Details" }).click();
  await page.waitForURL("**/projects/*");
  await page.getByRole("heading", { name, level: 1 }).waitFor();
}

describe("an owner's projects and milestones", () => {
  it("creates a project, then adds, edits and deletes milestones with every validation message", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await openProjectsTab(page);
    await screenshot(page, "projects-tab-owner-desktop");

    await page.getByRole("button", { name: "New Project" }).click();
    const dialog = page.getByRole("dialog", { name: "New Project" });
    await dialog.getByLabel("Project Name").fill("Porto Tidal Pilot");
    await dialog.getByLabel("Description").fill("A tidal energy pilot in the Douro estuary.");
    await dialog.getByLabel("Location").fill("Porto, Portugal");
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await expectToast(page, "Please fill in all required fields");
    await expectToast(page, "Missing Information");

    await dialog.getByLabel("Total Capital").fill("500000");
    await dialog.getByLabel("Currency").selectOption("EUR");
    await dialog.getByLabel("Start Date").fill("2025-01-05");
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await expectToast(page, "Your project has been created successfully");
    await dialog.waitFor({ state: "hidden" });
    const created = card(page, "Porto Tidal Pilot");
    await created.waitFor();
    expect(await created.textContent()).toContain("€500,000");
    expect(await created.textContent()).toContain("Jan 5, 2025 - Ongoing");
    expect(await created.textContent()).toContain("Pending Verification");
    expect(await created.textContent()).toContain("0%");

    await created.getByRole("link", { name: "View Details" }).click();
    await page.getByRole("heading", { name: "Porto Tidal Pilot", level: 1 }).waitFor();
    await page.getByRole("tab", { name: "Milestones" }).click();
    await page.getByText("No milestones have been created for this project yet.").waitFor();
    await page.getByRole("button", { name: "Create First Milestone" }).click();

    const form = page.getByRole("dialog", { name: "Add Milestone" });
    expect(await form.getByLabel("Due Date").getAttribute("min")).toBe(isoDay(0));
    await form.getByLabel("Title").fill("A");
    await form.getByLabel("Description").fill("Too short");
    await form.getByLabel("Due Date").fill("");
    await form.getByLabel("Capital Amount").fill("0");
    await form.getByRole("button", { name: "Create Milestone" }).click();
    for (const message of [
      "Title must be at least 2 characters.",
      "Description must be at least 10 characters.",
      "Due date is required.",
      "Capital amount must be greater than zero.",
    ])
      await form.getByText(message).waitFor();
    await screenshot(page, "milestone-form-errors-desktop");

    await form.getByLabel("Title").fill("Turbine installed");
    await form.getByLabel("Description").fill("The first 1 MW tidal turbine is installed and moored.");
    await form.getByLabel("Due Date").fill(isoDay(-1));
    await form.getByLabel("Capital Amount").fill("200000");
    await form.getByRole("button", { name: "Create Milestone" }).click();
    await form.getByText("Due date cannot be in the past.").waitFor();

    await form.getByLabel("Due Date").fill(isoDay(30));
    await form.getByLabel("Capital Amount").fill("600000");
    await form.getByRole("button", { name: "Create Milestone" }).click();
    await expectToast(page, "Error saving milestone");
    await expectToast(page, "Milestone amounts would exceed the project's total capital by €100,000.");

    await form.getByLabel("Capital Amount").fill("200000");
    await form.getByRole("button", { name: "Create Milestone" }).click();
    await expectToast(page, "Milestone created");
    await form.waitFor({ state: "hidden" });

    await page.getByRole("button", { name: "Add Milestone" }).click();
    const second = page.getByRole("dialog", { name: "Add Milestone" });
    await second.getByLabel("Title").fill("Grid export");
    await second.getByLabel("Description").fill("First month of metered export to the grid.");
    await second.getByLabel("Due Date").fill(isoDay(90));
    await second.getByLabel("Capital Amount").fill("150000");
    await second.getByRole("button", { name: "Create Milestone" }).click();
    await expectToast(page, "Milestone created");
    await page.getByTestId("milestone-card").nth(1).waitFor();

    await page.getByRole("button", { name: "Edit Turbine installed" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Milestone" });
    expect(await edit.getByLabel("Status").locator("option").allTextContents()).toEqual(["Pending", "Delayed"]);
    await edit.getByLabel("Capital Amount").fill("250000");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Milestone updated");
    await page.getByTestId("milestone-card").filter({ hasText: "€250,000" }).waitFor();

    await page.getByRole("button", { name: "Delete Grid export" }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByText("Are you sure you want to delete this milestone?").waitFor();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "The milestone has been successfully deleted.");
    await page.getByRole("button", { name: "Delete Grid export" }).waitFor({ state: "detached" });
    expect(await page.getByTestId("milestone-card").count()).toBe(1);
    await screenshot(page, "project-milestones-owner-desktop");

    await page.getByRole("tab", { name: "Finances" }).click();
    expect(await page.getByTestId("schedule-total").textContent()).toBe("€250,000");
    await page.getByRole("tab", { name: "Overview" }).click();
    await page.getByRole("table").getByText("Turbine installed").waitFor();
    await context.close();
  });
});

// Runs before the admin test below, which puts this investor on the Lisbon project.
describe("an investor", () => {
  it("sees only the projects they belong to, filters them, and is turned away from others", async () => {
    const owner = await suite.page();
    await signIn(owner.page, DEMO.owner);
    const all = (
      (await (await owner.page.request.get("/api/projects")).json()) as { items: { id: string; name: string }[] }
    ).items;
    await owner.context.close();

    const { context, page } = await suite.page();
    await signIn(page, DEMO.investor);
    await openProjectsTab(page);
    const names = await page.getByTestId("project-card").getByRole("heading").allTextContents();
    expect(names).not.toContain("Lisbon Data Centre Retrofit");
    expect(names).toContain("Mojave Solar Farm Phase II");
    expect(await page.getByRole("button", { name: "New Project" }).count()).toBe(0);

    // Each tab says how many of the investor's projects it holds; they filter on the server, kept in the URL.
    await page.getByRole("tab", { name: `All Projects ${names.length}` }).waitFor();
    await page.getByRole("tab", { name: "At Risk 1" }).waitFor();
    const headings = () => page.getByTestId("project-card").getByRole("heading").allTextContents();
    await page.getByRole("tab", { name: "At Risk" }).click();
    await page.waitForURL(/status=at_risk/);
    await expect.poll(headings).toEqual(["Harbor District Affordable Housing"]);
    await page.getByRole("tab", { name: "Funded" }).click();
    await page.waitForURL(/status=funded/);
    await expect.poll(headings).toEqual(["Rural Clinics Network"]);

    const lisbon = all.find((p) => p.name === "Lisbon Data Centre Retrofit")!;
    await page.goto(`/projects/${lisbon.id}`);
    await expectToast(page, "The requested project could not be found.");
    await page.waitForURL("**/dashboard");
    await page.goto("/milestones/00000000-0000-4000-8000-000000000000");
    await expectToast(page, "The requested milestone could not be found.");
    await page.waitForURL("**/dashboard");
    await context.close();
  });
});

describe("an admin", () => {
  it("assigns a verifier and an investor from the directory", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.admin);
    await openProject(page, "Lisbon Data Centre Retrofit");
    await page.getByRole("tab", { name: "Team" }).click();
    await page.getByText("No verifiers assigned").waitFor();
    await page.getByText("No investors assigned").waitFor();

    await page.getByRole("button", { name: "Assign Verifier" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Verifier", { exact: true }).locator("option", { hasText: "Theo Park" }).waitFor({
      state: "attached",
    });
    await dialog.getByLabel("Verifier", { exact: true }).selectOption({ label: "Theo Park" });
    await dialog.getByRole("button", { name: "Assign" }).click();
    await expectToast(page, "Verifier assigned");
    await page.getByText("Independent Verifier").waitFor();

    await page.getByRole("button", { name: "Assign Verifier" }).click();
    await dialog.getByLabel("Role").selectOption("investor");
    const investor = dialog.getByLabel("Investor", { exact: true });
    await investor.locator("option", { hasText: "Isabel Moreau" }).waitFor({ state: "attached" });
    await investor.selectOption({ label: "Isabel Moreau — Northwind Pension Fund" });
    await dialog.getByRole("button", { name: "Assign" }).click();
    await expectToast(page, "Investor assigned");
    await page.getByText("Northwind Pension Fund").waitFor();
    await screenshot(page, "project-team-admin-desktop");
    await context.close();
  });
});

describe("figures on the project and milestone pages", () => {
  it("shows capital, progress, upcoming milestones, countdown and share", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.investor);
    await openProject(page, "Mojave Solar Farm Phase II");
    const main = page.locator("main");
    for (const text of ["$12,000,000", "$3,000,000", "$9,000,000", "25%", "Verified"])
      await main.getByText(text, { exact: true }).first().waitFor();
    const upcoming = page.getByRole("table");
    expect(await upcoming.locator("tbody tr").count()).toBe(3);
    expect(await upcoming.locator("tbody tr").first().textContent()).toContain("Panel and inverter delivery");
    await screenshot(page, "project-overview-desktop");
    await page.getByRole("tab", { name: "Team" }).click();
    await page.getByText("Meridian Assurance").waitFor();
    await page.getByRole("tab", { name: "Finances" }).click();
    expect(await page.getByTestId("schedule-total").textContent()).toBe("$12,000,000");
    await screenshot(page, "project-finances-desktop");

    await page.getByRole("tab", { name: "Milestones" }).click();
    expect(await page.getByRole("button", { name: /^Edit / }).count()).toBe(0);
    await page
      .getByTestId("milestone-card")
      .filter({ hasText: "Battery storage installation" })
      .getByRole("link", { name: "View Details" })
      .click();
    await page.getByRole("heading", { name: "Battery storage installation", level: 1 }).waitFor();
    for (const text of ["$3,000,000", "25% of project total capital", "60 days remaining", "Pending"])
      await main.getByText(text, { exact: true }).first().waitFor();
    await page.getByRole("tab", { name: "Evidence" }).click();
    await page.getByText("No Evidence Uploaded").waitFor();
    await page.getByRole("link", { name: "Back to Project" }).click();
    await page.getByRole("heading", { name: "Mojave Solar Farm Phase II", level: 1 }).waitFor();

    await page.getByRole("tab", { name: "Milestones" }).click();
    await page
      .getByTestId("milestone-card")
      .filter({ hasText: "Site preparation and permits" })
      .getByRole("link", { name: "View Details" })
      .click();
    await page.getByText(/^Verified on /).waitFor();
    await page.getByText(/\$3,000,000 released on /).waitFor();
    await page.getByText("Vera Lindqvist").first().waitFor();
    await screenshot(page, "milestone-detail-verified-desktop");
    await context.close();
  });

  it("lists the investor's milestones across projects and the verifiers directory", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.investor);
    await page.getByRole("link", { name: "Milestones" }).first().click();
    await page.getByRole("heading", { name: "Milestones", level: 1 }).waitFor();
    await page.getByRole("link", { name: "Panel and inverter delivery" }).waitFor();
    await page.getByRole("tab", { name: "Rejected" }).click();
    await page.getByRole("link", { name: "Structural frame, block A" }).waitFor();
    expect(await page.locator("tbody tr").count()).toBe(1);
    await screenshot(page, "milestones-page-desktop");
    await page.getByRole("link", { name: "Verifiers" }).first().click();
    const vera = page.getByTestId("verifier-card").filter({ hasText: "Vera Lindqvist" });
    await vera.getByText("Meridian Assurance").waitFor();
    await vera.getByText("4.8").waitFor();
    await page
      .getByTestId("verifier-card")
      .filter({ hasText: "Theo Park" })
      .getByText("Independent Verifier")
      .waitFor();
    await screenshot(page, "verifiers-page-desktop");
    await context.close();
  });

  it("lays out the projects tab, project and milestone pages at phone width", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    await openProjectsTab(page);
    // Nothing may push the page wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "projects-tab-phone");
    await card(page, "Harbor District Affordable Housing").getByRole("link", { name: "View Details" }).click();
    await page.getByRole("heading", { name: "Harbor District Affordable Housing", level: 1 }).waitFor();
    await screenshot(page, "project-overview-phone");
    await page.getByRole("tab", { name: "Milestones" }).click();
    await page.getByTestId("milestone-card").first().waitFor();
    await screenshot(page, "project-milestones-phone");
    await page
      .getByTestId("milestone-card")
      .filter({ hasText: "Structural frame, block A" })
      .getByRole("link", { name: "View Details" })
      .click();
    await page.getByRole("heading", { name: "Structural frame, block A", level: 1 }).waitFor();
    await page.getByText("Overdue").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "milestone-detail-phone");
    await page.goto("/milestones");
    await page.getByRole("link", { name: "Panel and inverter delivery" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "milestones-page-phone");
    await context.close();
  });
});
