// /users, /verifiers and /reports as TanStack tables from tablets up: a sortable header selects the server's sort
// (kept in the URL with the filters, so a link reproduces the view) and the rows follow the server's order; phones
// get one card per row and no sideways scrolling.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

// The demo data has decisions but no reports: the demo verifier reports on each of theirs (some verified, some
// rejected), one after another, so the newest-first order is known to the server alone.
test.beforeAll(async () => {
  const { context, page } = await suite.page();
  await signIn(page, DEMO.verifier);
  const completed = await page.request.get("/api/verifications/completed?limit=100");
  expect(completed.status(), await completed.text()).toBe(200);
  const { items } = (await completed.json()) as { items: { milestoneId: string; status: string }[] };
  expect(new Set(items.map((item) => item.status))).toEqual(new Set(["verified", "rejected"]));
  for (const { milestoneId } of items) {
    const report = await page.request.post(`/api/milestones/${milestoneId}/report`, { data: {} });
    expect(report.status(), await report.text()).toBe(201);
  }
  await context.close();
});

/** The text of each row's first cell (the name or title leads it). */
const firstCells = (page: Page, table: string) =>
  page.getByRole("table", { name: table }).locator("tbody tr td:first-child").allTextContents();

/** The names the API lists first for this query, in its order. */
async function apiNames(page: Page, path: string, field: "name" | "milestoneTitle"): Promise<string[]> {
  const response = await page.request.get(path);
  expect(response.status(), await response.text()).toBe(200);
  const { items } = (await response.json()) as { items: Record<string, string>[] };
  return items.map((item) => item[field]);
}

/** Each row's first cell starts with these names, in this order. */
async function expectOrder(page: Page, table: string, names: string[]): Promise<void> {
  expect(names.length).toBeGreaterThan(0);
  await expect
    .poll(async () => {
      const cells = await firstCells(page, table);
      return cells.length === names.length && cells.every((cell, i) => cell.startsWith(names[i]));
    })
    .toBe(true);
}

async function expectCardsFit(page: Page, list: string): Promise<void> {
  await expect.poll(() => page.getByRole("list", { name: list }).getByRole("listitem").count()).toBeGreaterThan(0);
  await expect(page.getByRole("table", { name: list })).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test.describe("lists as tables", () => {
  test("/users: the Joined header sorts newest first on the server, in the URL; a link with the role filter reproduces it", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.admin);
    await page.goto("/users");
    await expectOrder(page, "Users", await apiNames(page, "/api/users?sort=name", "name"));
    await expect(page.getByRole("columnheader", { name: "Name" })).toHaveAttribute("aria-sort", "ascending");

    await page.getByRole("button", { name: "Joined", exact: true }).click();
    await page.waitForURL(/[?&]sort=newest/);
    await expectOrder(page, "Users", await apiNames(page, "/api/users?sort=newest", "name"));
    await expect(page.getByRole("columnheader", { name: "Joined" })).toHaveAttribute("aria-sort", "descending");
    await expect(page.getByRole("columnheader", { name: "Name" })).not.toHaveAttribute("aria-sort");
    await expect(page.getByLabel("Sort", { exact: true })).toHaveValue("newest");
    // The invite form above the list has a Role field too; the list's filter comes after it.
    const roleFilter = page.getByLabel("Role", { exact: true }).last();
    await roleFilter.selectOption("verifier");
    await page.waitForURL(/[?&]role=verifier/);
    const verifiers = await apiNames(page, "/api/users?sort=newest&role=verifier", "name");
    await expectOrder(page, "Users", verifiers);
    await expect(page.getByText(`Showing ${verifiers.length} users (all)`)).toBeVisible();

    const other = await context.newPage();
    await other.goto(page.url());
    await expectOrder(other, "Users", verifiers);
    await expect(other.getByLabel("Role", { exact: true }).last()).toHaveValue("verifier");
    await expect(other.getByRole("columnheader", { name: "Joined" })).toHaveAttribute("aria-sort", "descending");
    await screenshot(other, "lists-users-desktop");
    await context.close();
  });

  test("/verifiers: the Completed header sorts by most verifications on the server; a link reproduces it", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.admin);
    await page.goto("/verifiers");
    await expectOrder(page, "Verifiers", await apiNames(page, "/api/verifiers?sort=name", "name"));
    await expect(page.getByRole("columnheader", { name: "Verifier" })).toHaveAttribute("aria-sort", "ascending");

    await page.getByRole("button", { name: "Completed", exact: true }).click();
    await page.waitForURL(/[?&]sort=completed/);
    const byCompleted = await apiNames(page, "/api/verifiers?sort=completed", "name");
    await expectOrder(page, "Verifiers", byCompleted);
    await expect(page.getByRole("columnheader", { name: "Completed" })).toHaveAttribute("aria-sort", "descending");
    await page.getByRole("button", { name: "Verifier", exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has("sort"));

    await page.goto("/verifiers?sort=completed");
    await expectOrder(page, "Verifiers", byCompleted);
    await expect(page.getByLabel("Sort", { exact: true })).toHaveValue("completed");
    // The turnaround chart stays above the table.
    await expect(page.getByRole("region", { name: "Turnaround" })).toBeVisible();
    await screenshot(page, "lists-verifiers-desktop");
    await context.close();
  });

  test("/reports: newest first; the Submitted header turns the order round on the server; the decision filter is in the URL", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.investor);
    await page.goto("/reports");
    await expectOrder(page, "Verification reports", await apiNames(page, "/api/reports", "milestoneTitle"));
    const submitted = page.getByRole("columnheader", { name: "Submitted" });
    await expect(submitted).toHaveAttribute("aria-sort", "descending");
    await submitted.getByRole("button").click();
    await page.waitForURL(/[?&]sort=oldest/);
    await expectOrder(page, "Verification reports", await apiNames(page, "/api/reports?sort=oldest", "milestoneTitle"));
    await expect(submitted).toHaveAttribute("aria-sort", "ascending");
    await submitted.getByRole("button").click();
    await page.waitForURL((url) => !url.search.includes("sort=oldest"));

    await page.getByLabel("Decision", { exact: true }).selectOption("verified");
    await page.waitForURL(/[?&]decision=verified/);
    const verified = await apiNames(page, "/api/reports?status=verified", "milestoneTitle");
    await expectOrder(page, "Verification reports", verified);
    const other = await context.newPage();
    await other.goto(page.url());
    await expectOrder(other, "Verification reports", verified);
    await expect(other.getByLabel("Decision", { exact: true })).toHaveValue("verified");
    await screenshot(other, "lists-reports-desktop");
    await context.close();
  });

  test("phones get one card per row, with no sideways scrolling", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.admin);
    await page.goto("/users");
    await expectCardsFit(page, "Users");
    // The role picker and the own-role hint work on the card too.
    await expect(page.getByLabel("Role for Avery Chen")).toBeDisabled();
    await screenshot(page, "lists-users-phone");
    await page.goto("/verifiers?sort=completed");
    await expectCardsFit(page, "Verifiers");
    await screenshot(page, "lists-verifiers-phone");
    await context.close();

    const investor = await suite.page(PHONE);
    await signIn(investor.page, DEMO.investor);
    await investor.page.goto("/reports");
    await expectCardsFit(investor.page, "Verification reports");
    await screenshot(investor.page, "lists-reports-phone");
    await investor.context.close();
  });
});
