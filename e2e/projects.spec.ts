import { expect, type Page, test } from "@playwright/test";
import { dueCountdown } from "@tranche/domain";
import { DEMO, DESKTOP, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

const isoDay = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

async function openProjectsTab(page: Page) {
  await page.getByRole("tab", { name: "Projects" }).click();
  await expect(page.getByText("Project Management")).toBeVisible();
  await expect(page.getByTestId("project-card").first()).toBeVisible();
}

function card(page: Page, name: string) {
  return page.getByTestId("project-card").filter({ has: page.getByRole("heading", { name }) });
}

async function openProject(page: Page, name: string) {
  await openProjectsTab(page);
  await card(page, name).getByRole("link", { name: "View Details" }).click();
  await page.waitForURL("**/projects/*");
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
}

test.describe("an owner's projects and milestones", () => {
  test("puts the keyboard on the first field the project form refuses, described by its error", async () => {
    const { page } = await suite.page();
    await signIn(page, DEMO.owner);
    await openProjectsTab(page);
    await page.getByRole("button", { name: "New Project" }).click();
    const dialog = page.getByRole("dialog", { name: "New Project" });
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await expectToast(page, "Please fill in all required fields");
    const name = dialog.getByLabel("Project Name");
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAccessibleDescription("Project name is required.");
    await expect(dialog.getByLabel("Location")).toHaveAccessibleDescription("Location is required.");
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, "project-form-errors-desktop");
    await page.setViewportSize(PHONE);
    await screenshot(page, "project-form-errors-phone");
    await page.setViewportSize(DESKTOP);

    // Filled in, only the capital is left: the focus follows it down the form.
    await name.fill("Focus Test");
    await dialog.getByLabel("Description").fill("Checks where the focus lands.");
    await dialog.getByLabel("Location").fill("Lisbon, Portugal");
    await dialog.getByRole("button", { name: "Create Project" }).click();
    const capital = dialog.getByLabel("Total Capital");
    await expect(capital).toBeFocused();
    await expect(capital).toHaveAccessibleDescription("Total capital is required.");
    await expect(name).not.toHaveAttribute("aria-invalid", "true");

    // A figure the schema refuses is named under its input, focused like a missing one.
    await capital.fill("500000");
    await dialog.getByLabel("Site Latitude").fill("95");
    await dialog.getByRole("button", { name: "Create Project" }).click();
    const latitude = dialog.getByLabel("Site Latitude");
    await expect(latitude).toBeFocused();
    await expect(latitude).toHaveAttribute("aria-invalid", "true");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  });

  test("on a phone, the toast of a refused dialog form covers neither the dialog's title nor the field to fix", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    await openProjectsTab(page);
    await page.getByRole("button", { name: "New Project" }).click();
    const dialog = page.getByRole("dialog", { name: "New Project" });
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await expectToast(page, "Please fill in all required fields");
    const toastBox = await page.locator("[data-sonner-toast]").first().boundingBox();
    const covered = async (what: string, box: { x: number; y: number; width: number; height: number } | null) => {
      if (!toastBox || !box) throw new Error(`no box for the toast or ${what}`);
      const apart =
        toastBox.y >= box.y + box.height ||
        box.y >= toastBox.y + toastBox.height ||
        toastBox.x >= box.x + box.width ||
        box.x >= toastBox.x + toastBox.width;
      return apart ? null : what;
    };
    expect(await covered("the title", await dialog.getByRole("heading", { name: "New Project" }).boundingBox())).toBe(
      null,
    );
    const name = dialog.getByLabel("Project Name");
    await expect(name).toBeFocused();
    expect(await covered("the first field", await name.boundingBox())).toBe(null);
    await screenshot(page, "project-form-toast-phone", { fullPage: false });
    await context.close();
  });

  test("creates a project, then adds, edits and deletes milestones with every validation message", async () => {
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
    await expect(dialog).toBeHidden();
    const created = card(page, "Porto Tidal Pilot");
    await expect(created).toBeVisible();
    await expect(created).toContainText("€500,000");
    await expect(created).toContainText("Jan 5, 2025 - Ongoing");
    await expect(created).toContainText("Pending Verification");
    await expect(created).toContainText("0%");

    await created.getByRole("link", { name: "View Details" }).click();
    await expect(page.getByRole("heading", { name: "Porto Tidal Pilot", level: 1 })).toBeVisible();
    await page.getByRole("tab", { name: "Milestones" }).click();
    await expect(page.getByText("No milestones have been created for this project yet.")).toBeVisible();
    await page.getByRole("button", { name: "Create First Milestone" }).click();

    const form = page.getByRole("dialog", { name: "Add Milestone" });
    await expect(form.getByLabel("Due Date")).toHaveAttribute("min", isoDay(0));
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
      await expect(form.getByText(message)).toBeVisible();
    await expect(form.getByLabel("Title")).toBeFocused();
    await expect(form.getByLabel("Title")).toHaveAccessibleDescription("Title must be at least 2 characters.");
    await expect(form.getByLabel("Capital Amount")).toHaveAccessibleDescription(
      "Capital amount must be greater than zero.",
    );
    await screenshot(page, "milestone-form-errors-desktop");

    await form.getByLabel("Title").fill("Turbine installed");
    await form.getByLabel("Description").fill("The first 1 MW tidal turbine is installed and moored.");
    await form.getByLabel("Due Date").fill(isoDay(-1));
    await form.getByLabel("Capital Amount").fill("200000");
    await form.getByRole("button", { name: "Create Milestone" }).click();
    await expect(form.getByText("Due date cannot be in the past.")).toBeVisible();
    await expect(form.getByLabel("Due Date")).toBeFocused();
    await expect(form.getByLabel("Due Date")).toHaveAccessibleDescription("Due date cannot be in the past.");

    await form.getByLabel("Due Date").fill(isoDay(30));
    await form.getByLabel("Capital Amount").fill("600000");
    await form.getByRole("button", { name: "Create Milestone" }).click();
    await expectToast(page, "Error saving milestone");
    await expectToast(page, "Milestone amounts would exceed the project's total capital by €100,000.");

    await form.getByLabel("Capital Amount").fill("200000");
    await form.getByRole("button", { name: "Create Milestone" }).click();
    await expectToast(page, "Milestone created");
    await expect(form).toBeHidden();

    await page.getByRole("button", { name: "Add Milestone" }).click();
    const second = page.getByRole("dialog", { name: "Add Milestone" });
    await second.getByLabel("Title").fill("Grid export");
    await second.getByLabel("Description").fill("First month of metered export to the grid.");
    await second.getByLabel("Due Date").fill(isoDay(90));
    await second.getByLabel("Capital Amount").fill("150000");
    await second.getByRole("button", { name: "Create Milestone" }).click();
    await expectToast(page, "Milestone created");
    await expect(page.getByTestId("milestone-card").nth(1)).toBeVisible();

    await page.getByRole("button", { name: "Edit Turbine installed" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Milestone" });
    await expect(edit.getByLabel("Status").locator("option")).toHaveText(["Pending", "Delayed"]);
    await edit.getByLabel("Capital Amount").fill("250000");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Milestone updated");
    await expect(page.getByTestId("milestone-card").filter({ hasText: "€250,000" })).toBeVisible();

    await page.getByRole("button", { name: "Delete Grid export" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText("Are you sure you want to delete this milestone?")).toBeVisible();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "The milestone has been successfully deleted.");
    await expect(page.getByRole("button", { name: "Delete Grid export" })).not.toBeAttached();
    await expect(page.getByTestId("milestone-card")).toHaveCount(1);
    await screenshot(page, "project-milestones-owner-desktop");

    await page.getByRole("tab", { name: "Finances" }).click();
    await expect(page.getByTestId("schedule-total")).toHaveText("€250,000");
    await page.getByRole("tab", { name: "Overview" }).click();
    await expect(page.getByRole("table").getByText("Turbine installed")).toBeVisible();
    await context.close();
  });
});

// Runs before the admin test below, which puts this investor on the Lisbon project.
test.describe("an investor", () => {
  test("sees only the projects they belong to, filters them, and is turned away from others", async () => {
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
    await expect(page.getByRole("button", { name: "New Project" })).toHaveCount(0);

    // Each tab says how many of the investor's projects it holds; they filter on the server, kept in the URL.
    await expect(page.getByRole("tab", { name: `All Projects ${names.length}` })).toBeVisible();
    await expect(page.getByRole("tab", { name: "At Risk 1" })).toBeVisible();
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

test.describe("an admin", () => {
  test("assigns a verifier and an investor from the directory", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.admin);
    await openProject(page, "Lisbon Data Centre Retrofit");
    await page.getByRole("tab", { name: "Team" }).click();
    await expect(page.getByText("No verifiers assigned")).toBeVisible();
    await expect(page.getByText("No investors assigned")).toBeVisible();

    await page.getByRole("button", { name: "Assign Verifier" }).click();
    const dialog = page.getByRole("dialog");
    await expect(
      dialog.getByLabel("Verifier", { exact: true }).locator("option", { hasText: "Theo Park" }),
    ).toBeAttached();
    await dialog.getByLabel("Verifier", { exact: true }).selectOption({ label: "Theo Park" });
    await dialog.getByRole("button", { name: "Assign" }).click();
    await expectToast(page, "Verifier assigned");
    await expect(page.getByText("Independent Verifier")).toBeVisible();

    await page.getByRole("button", { name: "Assign Verifier" }).click();
    await dialog.getByLabel("Role").selectOption("investor");
    const investor = dialog.getByLabel("Investor", { exact: true });
    await expect(investor.locator("option", { hasText: "Isabel Moreau" })).toBeAttached();
    await investor.selectOption({ label: "Isabel Moreau — Northwind Pension Fund" });
    await dialog.getByRole("button", { name: "Assign" }).click();
    await expectToast(page, "Investor assigned");
    await expect(page.getByText("Northwind Pension Fund")).toBeVisible();
    await screenshot(page, "project-team-admin-desktop");
    await context.close();
  });
});

test.describe("figures on the project and milestone pages", () => {
  test("shows capital, progress, upcoming milestones, countdown and share", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.investor);
    await openProject(page, "Mojave Solar Farm Phase II");
    const main = page.locator("main");
    for (const text of ["$12,000,000", "$3,000,000", "$9,000,000", "25%", "Verified"])
      await expect(main.getByText(text, { exact: true }).first()).toBeVisible();
    const upcoming = page.getByRole("table");
    await expect(upcoming.locator("tbody tr")).toHaveCount(3);
    await expect(upcoming.locator("tbody tr").first()).toContainText("Panel and inverter delivery");
    await screenshot(page, "project-overview-desktop");
    await page.getByRole("tab", { name: "Team" }).click();
    await expect(page.getByText("Meridian Assurance")).toBeVisible();
    await page.getByRole("tab", { name: "Finances" }).click();
    await expect(page.getByTestId("schedule-total")).toHaveText("$12,000,000");
    await screenshot(page, "project-finances-desktop");

    await page.getByRole("tab", { name: "Milestones" }).click();
    await expect(page.getByRole("button", { name: /^Edit / })).toHaveCount(0);
    await page
      .getByTestId("milestone-card")
      .filter({ hasText: "Battery storage installation" })
      .getByRole("link", { name: "View Details" })
      .click();
    await expect(page.getByRole("heading", { name: "Battery storage installation", level: 1 })).toBeVisible();
    // Seeded 60 days ahead: 59 once the run has passed midnight since the demo data was seeded.
    const { dueDate } = await (await page.request.get(`/api${new URL(page.url()).pathname}`)).json();
    expect(["60 days remaining", "59 days remaining"]).toContain(dueCountdown(dueDate));
    for (const text of ["$3,000,000", "25% of project total capital", dueCountdown(dueDate), "Pending"])
      await expect(main.getByText(text, { exact: true }).first()).toBeVisible();
    await page.getByRole("tab", { name: "Evidence" }).click();
    await expect(page.getByText("No Evidence Uploaded")).toBeVisible();
    await page.getByRole("link", { name: "Back to Project" }).click();
    await expect(page.getByRole("heading", { name: "Mojave Solar Farm Phase II", level: 1 })).toBeVisible();

    await page.getByRole("tab", { name: "Milestones" }).click();
    await page
      .getByTestId("milestone-card")
      .filter({ hasText: "Site preparation and permits" })
      .getByRole("link", { name: "View Details" })
      .click();
    await expect(page.getByText(/^Verified on /)).toBeVisible();
    await expect(page.getByText(/\$3,000,000 released on /)).toBeVisible();
    await expect(page.getByText("Vera Lindqvist").first()).toBeVisible();
    await screenshot(page, "milestone-detail-verified-desktop");
    await context.close();
  });

  test("lists the investor's milestones across projects and the verifiers directory", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.investor);
    await page.getByRole("link", { name: "Milestones" }).first().click();
    await expect(page.getByRole("heading", { name: "Milestones", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "Panel and inverter delivery" })).toBeVisible();
    await page.getByRole("tab", { name: "Rejected" }).click();
    await expect(page.getByRole("link", { name: "Structural frame, block A" })).toBeVisible();
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await screenshot(page, "milestones-page-desktop");
    await page.getByRole("link", { name: "Verifiers" }).first().click();
    const vera = page.getByTestId("verifier-card").filter({ hasText: "Vera Lindqvist" });
    await expect(vera.getByText("Meridian Assurance")).toBeVisible();
    await expect(vera.getByText("4.8")).toBeVisible();
    await expect(
      page.getByTestId("verifier-card").filter({ hasText: "Theo Park" }).getByText("Independent Verifier"),
    ).toBeVisible();
    await screenshot(page, "verifiers-page-desktop");
    await context.close();
  });

  test("lays out the projects tab, project and milestone pages at phone width", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    await openProjectsTab(page);
    // Nothing may push the page wider than the phone.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "projects-tab-phone");
    await card(page, "Harbor District Affordable Housing").getByRole("link", { name: "View Details" }).click();
    await expect(page.getByRole("heading", { name: "Harbor District Affordable Housing", level: 1 })).toBeVisible();
    await screenshot(page, "project-overview-phone");
    await page.getByRole("tab", { name: "Milestones" }).click();
    await expect(page.getByTestId("milestone-card").first()).toBeVisible();
    await screenshot(page, "project-milestones-phone");
    await page
      .getByTestId("milestone-card")
      .filter({ hasText: "Structural frame, block A" })
      .getByRole("link", { name: "View Details" })
      .click();
    await expect(page.getByRole("heading", { name: "Structural frame, block A", level: 1 })).toBeVisible();
    await expect(page.getByText("Overdue")).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "milestone-detail-phone");
    await page.goto("/milestones");
    await expect(page.getByRole("link", { name: "Panel and inverter delivery" })).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "milestones-page-phone");
    await context.close();
  });
});
