// Issue 16 "Data and correctness" in a real browser on the demo data: one report per decision (the button becomes
// "Update Report"), "Due today" instead of "Urgent · 0 days left", every decision on the Completed tab, the
// capital ceiling named under its input before anything is sent, and one date-time and size format.

import { expect, type Page, test } from "@playwright/test";
import { todayIso } from "@tranche/domain";
import { DEMO, DESKTOP, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

const queueItem = (page: Page, title: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });

async function projectId(page: Page, name: string): Promise<string> {
  const body = (await (await page.request.get("/api/projects")).json()) as
    | { id: string; name: string }[]
    | { items: { id: string; name: string }[] };
  const list = Array.isArray(body) ? body : body.items;
  const found = list.find((p) => p.name === name);
  if (!found) throw new Error(`no project ${name}`);
  return found.id;
}

test.describe("data and correctness", () => {
  test("a milestone due today says 'Due today'; the Completed tab lists every decision", async () => {
    const owner = await suite.page(DESKTOP);
    await signIn(owner.page, DEMO.owner);
    // Mojave's capital is fully allocated: move its pending battery milestone to today instead of adding one.
    const id = await projectId(owner.page, "Mojave Solar Farm Phase II");
    const detail = (await (await owner.page.request.get(`/api/projects/${id}`)).json()) as {
      milestones: { id: string; title: string }[];
    };
    const battery = detail.milestones.find((m) => m.title === "Battery storage installation");
    const moved = await owner.page.request.patch(`/api/milestones/${battery?.id}`, { data: { dueDate: todayIso() } });
    expect(moved.status()).toBe(200);
    await owner.context.close();

    for (const [viewport, name] of [
      [DESKTOP, "desktop"],
      [PHONE, "phone"],
    ] as const) {
      const { context, page } = await suite.page(viewport);
      await signIn(page, DEMO.verifier);
      await page.goto("/verifications");
      const item = queueItem(page, "Battery storage installation");
      await expect(item.getByText("Due today", { exact: true })).toBeVisible();
      await expect(item).not.toContainText("0 days left");
      // Each date says what it is: an open milestone's is its due date, a decided one's the decision's.
      const dated = /^(Due|Decided) [A-Z][a-z]+ \d{1,2}, \d{4}$/;
      await expect(queueItem(page, "Grid interconnection").getByText(dated)).toHaveText(/^Due /);
      await screenshot(page, `due-today-${name}`);

      await page.getByRole("tab", { name: "Completed" }).click();
      const completed = page.getByRole("list", { name: "Completed" }).getByRole("listitem");
      await expect(completed.first()).toBeVisible();
      await expect(completed).toHaveCount(5);
      await expect(page.getByText("Showing 5 of 5 decisions")).toBeVisible();
      for (const row of await completed.all()) await expect(row.getByText(dated)).toHaveText(/^Decided /);
      await screenshot(page, `completed-dates-${name}`);
      await context.close();
    }
  });

  test("a second report on the same decision edits the first: the button reads 'Update Report'", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.verifier);
    await page.goto("/verifications");
    await page.getByRole("tab", { name: "Completed" }).click();
    const item = queueItem(page, "Site preparation and permits");
    await item.getByRole("button", { name: "View Verification" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "Report" }).click();
    await dialog.getByRole("button", { name: "Submit Report" }).click();
    await expectToast(page, "Report submitted");

    await item.getByRole("button", { name: "View Verification" }).click();
    await dialog.getByRole("tab", { name: "Report" }).click();
    await expect(dialog.getByText(/^Submitted [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM) \S+$/)).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Submit Report" })).toHaveCount(0);
    await screenshot(page, "report-update-desktop", { fullPage: false });
    await dialog.getByRole("button", { name: "Update Report" }).click();
    await expectToast(page, "Report updated");

    await page.goto("/reports");
    await expect(page.getByRole("heading", { name: "Reports" }).first()).toBeVisible();
    await expect(page.getByText("Site preparation and permits").first()).toBeVisible();
    await expect(page.getByText("Site preparation and permits")).toHaveCount(1);
    await context.close();
  });

  test("refuses a total capital over 100 billion in the form, before sending it", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.owner);
    await page.getByRole("tab", { name: "Projects" }).click();
    await page.getByRole("button", { name: "New Project" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Project Name").fill("Too big");
    await dialog.getByLabel("Description").fill("More capital than any project needs.");
    await dialog.getByLabel("Total Capital").fill("1000000000000000");
    await dialog.getByLabel("Location").fill("Nowhere");
    let posted = false;
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/projects")) posted = true;
    });
    await dialog.getByRole("button", { name: "Create Project" }).click();
    await expect(dialog.getByText("Total capital must be at most 100,000,000,000.")).toBeVisible();
    expect(posted).toBe(false);
    await screenshot(page, "capital-ceiling-desktop", { fullPage: false });
    await context.close();
  });
});
