import { expect, type Page, test } from "@playwright/test";
import { DEMO, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

const cards = (page: Page) => page.getByTestId("project-card");
const cardNames = (page: Page) => cards(page).getByRole("heading").allTextContents();

/** Types a term into the header's search box and presses Enter. */
async function search(page: Page, term: string) {
  const box = page.getByRole("search").getByPlaceholder("Search...");
  await box.fill(term);
  await box.press("Enter");
  await page.waitForURL((url) => url.pathname === "/projects" && url.searchParams.get("q") === term);
  await expect(page.getByTestId("search-term").filter({ hasText: term })).toBeVisible();
}

async function openFromSearch(page: Page, name: string) {
  await search(page, name);
  await cards(page)
    .filter({ has: page.getByRole("heading", { name }) })
    .getByRole("link", { name: "View Details" })
    .click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
}

test.describe("the header search", () => {
  test("finds the caller's projects by name, description or location, and says when nothing matches", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await search(page, "mojave");
    await expect(cards(page).first()).toBeVisible();
    await expect.poll(() => cardNames(page)).toEqual(["Mojave Solar Farm Phase II"]);
    await screenshot(page, "project-search-desktop");

    // 'Leeds' is only in a location.
    await search(page, "LEEDS");
    await expect(cards(page).first()).toBeVisible();
    await expect.poll(() => cardNames(page)).toEqual(["Aire Valley Water Treatment Upgrade"]);

    await search(page, "zzqx nothing here");
    await expect(page.getByText("No projects found")).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    await screenshot(page, "project-search-empty-desktop");

    await page.getByRole("button", { name: "Clear search" }).click();
    await page.waitForURL((url) => url.pathname === "/projects" && url.search === "");
    await expect(cards(page).nth(4)).toBeVisible();
    await context.close();
  });

  test("shows the term and the results at phone width", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    await page.goto("/projects?q=portugal");
    await expect(page.getByTestId("search-term").filter({ hasText: "portugal" })).toBeVisible();
    await expect(cards(page).first()).toBeVisible();
    await expect.poll(() => cardNames(page)).toEqual(["Lisbon Data Centre Retrofit"]);
    await screenshot(page, "project-search-phone");
    await context.close();
  });
});

test.describe("an owner edits and deletes projects", () => {
  test("edits a project's name and capital, with the server's messages on refusal", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await openFromSearch(page, "Harbor District Affordable Housing");
    await screenshot(page, "project-actions-desktop");

    await page.getByRole("button", { name: "Edit Project" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Project" });
    await expect(dialog.getByLabel("Project Name")).toHaveValue("Harbor District Affordable Housing");
    await expect(dialog.getByLabel("Total Capital")).toHaveValue("8500000");
    await expect(dialog.getByLabel("Location")).toHaveValue("Rotterdam, Netherlands");

    // A 400 from the server: its field message shows under the field.
    const start = await dialog.getByLabel("Start Date").inputValue();
    const before = new Date(Date.parse(start) - 86_400_000).toISOString().slice(0, 10);
    await dialog.getByLabel("End Date").fill(before);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(dialog.getByText("End date must be on or after the start date.")).toBeVisible();
    await expectToast(page, "Error updating project");
    await expect(
      page.locator("[data-sonner-toast]").getByText("End date must be on or after the start date.", { exact: true }),
    ).toBeVisible();

    // A 422: the milestones already add up to €8,500,000 (the project is in euros).
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Edit Project" }).click();
    await dialog.getByLabel("Total Capital").fill("8000000");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Total capital cannot be less than the sum of the milestone amounts (€8,500,000).");

    await dialog.getByLabel("Project Name").fill("Harbor District Homes");
    await dialog.getByLabel("Total Capital").fill("9000000");
    await screenshot(page, "project-edit-dialog-desktop", { fullPage: false });
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Project updated");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { name: "Harbor District Homes", level: 1 })).toBeVisible();
    await expect(page.getByText("€9,000,000").first()).toBeVisible();
    await page.getByRole("tab", { name: "Finances" }).click();
    await expect(page.getByText("€7,000,000").first()).toBeVisible();

    // The list shows the new name and figure without a reload.
    await search(page, "harbor");
    const card = cards(page).filter({ has: page.getByRole("heading", { name: "Harbor District Homes" }) });
    await expect(card).toBeVisible();
    await expect(card).toContainText("€9,000,000");
    await context.close();
  });

  test("is told why a project with a verified milestone cannot be deleted, before trying", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await openFromSearch(page, "Mojave Solar Farm Phase II");
    const button = page.getByRole("button", { name: "Delete Project" });
    await expect(button).toBeVisible();
    await expect(button).toBeDisabled();
    const reason = "A project with verified milestones or released capital cannot be deleted.";
    const describedBy = (await button.getAttribute("aria-describedby")) ?? "";
    const said = await page.evaluate((id) => document.getElementById(id)?.textContent, describedBy);
    expect(said).toBe(reason);
    await expect(page.getByText(reason)).toBeVisible();
    await screenshot(page, "project-delete-blocked-desktop", { fullPage: false });
    await context.close();
  });

  test("creates a project and deletes it, landing on the dashboard", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await page.getByRole("tab", { name: "Projects" }).click();
    await page.getByRole("button", { name: "New Project" }).click();
    const dialog = page.getByRole("dialog", { name: "New Project" });
    await dialog.getByLabel("Project Name").fill("Throwaway Pilot");
    await dialog.getByLabel("Description").fill("A pilot created only to be deleted.");
    await dialog.getByLabel("Total Capital").fill("250000");
    await dialog.getByLabel("Location").fill("Ghent, Belgium");
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await expectToast(page, "Project Created");
    await expect(dialog).toBeHidden();

    await openFromSearch(page, "Throwaway Pilot");
    await page.getByRole("button", { name: "Delete Project" }).click();
    const confirm = page.getByRole("alertdialog");
    await screenshot(page, "project-delete-confirm-desktop", { fullPage: false });
    await confirm.getByRole("button", { name: "Delete Project" }).click();
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Project deleted");
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Project not found" })).toHaveCount(0);

    await search(page, "Throwaway");
    await expect(page.getByText("No projects found")).toBeVisible();
    await context.close();
  });

  test("shows the actions and the edit dialog at phone width", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    await page.goto("/projects?q=lisbon");
    await cards(page).getByRole("link", { name: "View Details" }).click();
    await expect(page.getByRole("heading", { name: "Lisbon Data Centre Retrofit", level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "Delete Project" })).toBeVisible();
    await screenshot(page, "project-actions-phone", { fullPage: false });
    // The milestone tables scroll inside their cards: the page itself is no wider than the phone.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByRole("tab", { name: "Finances" }).click();
    await expect(page.getByTestId("schedule-total")).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "project-finances-phone");
    await page.getByRole("button", { name: "Edit Project" }).click();
    await expect(page.getByRole("dialog", { name: "Edit Project" }).getByLabel("Project Name")).toBeVisible();
    await screenshot(page, "project-edit-dialog-phone", { fullPage: false });
    await context.close();
  });

  test("offers neither action to an investor", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.investor);
    await openFromSearch(page, "Mojave Solar Farm Phase II");
    await expect(page.getByRole("button", { name: "Edit Project" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Delete Project" })).toHaveCount(0);
    await context.close();
  });
});
