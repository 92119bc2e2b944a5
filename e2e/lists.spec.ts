// Lists a page at a time: the server's keyset pages behind "Show more", and the view (status, search, sort,
// filters) in the URL, so a link reproduces it; the dashboard's Milestones and Reports tabs are the same lists.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();
const COUNT = 30;

test.beforeAll(async () => {
  const { context, page } = await suite.page();
  await signIn(page, DEMO.owner);
  const created = await page.request.post("/api/projects", {
    data: {
      name: "Paging Wind Farm",
      description: "Thirty milestones.",
      location: "Esbjerg, Denmark",
      totalCapital: 10_000_000,
      currency: "USD",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  for (let i = 1; i <= COUNT; i++) {
    const milestone = await page.request.post(`/api/projects/${id}/milestones`, {
      data: {
        title: `Turbine ${String(i).padStart(2, "0")}`,
        description: "Foundation, tower and nacelle.",
        dueDate: `2031-01-${String(i).padStart(2, "0")}`,
        capitalAmount: 1000 * i,
      },
    });
    expect(milestone.status(), await milestone.text()).toBe(201);
  }
  await context.close();
});

const rowTitles = (page: Page) =>
  page.getByRole("table", { name: "Milestones" }).locator("tbody tr td:first-child").allTextContents();

test.describe("paged lists", () => {
  test("/milestones shows 25, then the rest on Show more; search and sort are in the URL and a link reproduces them", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await page.goto("/milestones");
    await page.getByRole("searchbox", { name: "Search milestones by title" }).fill("Turbine");
    await page.waitForURL(/[?&]q=Turbine/);
    await expect(page.getByText(`Showing 25 of ${COUNT} milestones`)).toBeVisible();
    await expect.poll(() => rowTitles(page)).toHaveLength(25);
    // The status tabs count what the search matches, every page of it.
    await expect(page.getByRole("tab", { name: `All ${COUNT}` })).toBeVisible();
    await expect(page.getByRole("tab", { name: `Pending ${COUNT}` })).toBeVisible();
    await expect(page.getByRole("tab", { name: "Verified 0" })).toBeVisible();
    // From the keyboard: when the last page is in and the button goes, focus moves to what the footer says.
    await page.getByRole("button", { name: "Show more milestones" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByText(`Showing ${COUNT} of ${COUNT} milestones`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Show more milestones" })).toHaveCount(0);
    await expect(page.getByText(`Showing ${COUNT} of ${COUNT} milestones`)).toBeFocused();

    // Earliest due first by default; the Amount header sorts by the largest amount, on the server.
    await expect.poll(async () => (await rowTitles(page))[0]).toBe("Turbine 01");
    await page.getByRole("button", { name: "Amount" }).click();
    await page.waitForURL(/[?&]sort=amount/);
    await expect.poll(async () => (await rowTitles(page))[0]).toBe("Turbine 30");
    await expect(page.getByRole("columnheader", { name: "Amount" })).toHaveAttribute("aria-sort", "descending");

    const link = page.url();
    const other = await context.newPage();
    await other.goto(link);
    await expect(other.getByText(`Showing 25 of ${COUNT} milestones`)).toBeVisible();
    await expect(other.getByRole("searchbox", { name: "Search milestones by title" })).toHaveValue("Turbine");
    expect((await rowTitles(other))[0]).toBe("Turbine 30");
    await screenshot(other, "lists-milestones-sorted");
    await context.close();
  });

  test("a status with no milestone says so, and phones get one card per milestone", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    await page.goto("/milestones?q=Turbine&status=rejected");
    await expect(page.getByText("No milestones found")).toBeVisible();
    await page.goto("/milestones?q=Turbine");
    const cards = page.getByRole("list", { name: "Milestones" }).getByRole("listitem");
    await expect.poll(() => cards.count()).toBe(25);
    await screenshot(page, "lists-milestones-phone");
    await context.close();
  });

  test("the dashboard's Milestones and Reports tabs are the paged lists, and each tab starts from its own defaults", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await page.getByRole("tab", { name: "Projects" }).click();
    await page.getByRole("tab", { name: "At Risk" }).click();
    await page.waitForURL(/status=at_risk/);
    await page.getByRole("tab", { name: "Milestones", exact: true }).click();
    await page.waitForURL((url) => url.search === "?tab=milestones");
    await expect(page.getByText("Please select a project to manage its milestones.")).toBeVisible();
    await page.getByRole("searchbox", { name: "Search milestones by title" }).fill("Turbine");
    await page.waitForURL(/[?&]q=Turbine/);
    await expect.poll(async () => (await rowTitles(page)).every((title) => title.startsWith("Turbine"))).toBe(true);
    await expect(page.getByText(`Showing 25 of ${COUNT} milestones`)).toBeVisible();
    await screenshot(page, "lists-dashboard-milestones");
    await page.getByRole("tab", { name: "Reports" }).click();
    await page.waitForURL((url) => url.search === "?tab=reports");
    await expect(page.getByLabel("Decision")).toBeVisible();
    await expect(page.getByText("Reports functionality will be available in a future update.")).toHaveCount(0);
    await context.close();
  });

  test("notifications filter by unread and category on the server, kept in the URL", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await page.goto("/notifications");
    await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
    await page.getByLabel("Category").selectOption("release");
    await page.waitForURL(/category=release/);
    await page.getByRole("tab", { name: "Unread" }).click();
    await page.waitForURL(/show=unread/);
    const items = page.getByTestId("notification-item");
    await expect
      .poll(async () => {
        if (await page.getByText("No notification in this category.").count()) return "empty";
        const categories = await page.getByTestId("notification-category").allTextContents();
        const read = await items.evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-read")));
        return categories.every((c) => c === "release") && read.every((r) => r === "false") ? "filtered" : "mixed";
      })
      .not.toBe("mixed");
    await page.reload();
    await expect(page.getByLabel("Category")).toHaveValue("release");
    await expect(page.getByRole("tab", { name: "Unread" })).toHaveAttribute("aria-selected", "true");
    await context.close();
  });
});
