// The verifier's work in a real browser against the built server and demo data: start, checklist, evidence,
// approve (capital released); reject with a reason, the owner resubmits, the verifier approves and reports.
import { expect, type Page, test } from "@playwright/test";
import { daysUntil } from "@tranche/domain";
import { DEMO, DESKTOP, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

const MOJAVE = "Mojave Solar Farm Phase II";

interface ProjectSummary {
  id: string;
  name: string;
  disbursedCapital: number;
  totalCapital: number;
}

async function project(page: Page, name: string): Promise<ProjectSummary> {
  const res = await page.request.get("/api/projects");
  const body = (await res.json()) as ProjectSummary[] | { items: ProjectSummary[] };
  const list = Array.isArray(body) ? body : body.items;
  const found = list.find((p) => p.name === name);
  if (!found) throw new Error(`no project ${name}`);
  return found;
}

/** The queue card of a milestone on /verifications. */
const queueItem = (page: Page, title: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });

async function milestoneIdFromQueue(page: Page, title: string): Promise<string> {
  const href = await queueItem(page, title)
    .getByRole("link", { name: /View Details/ })
    .getAttribute("href");
  return (href ?? "").split("/").pop() ?? "";
}

const progressText = (page: Page) => page.getByRole("dialog").getByTestId("verification-progress");

test.describe("verification", () => {
  test("a verifier starts, ticks the checklist, uploads two files and approves: capital is released", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.verifier);
    await page.goto("/verifications");
    await expect(page.getByRole("heading", { name: "Verifications" })).toBeVisible();
    const pendingList = page.getByRole("list", { name: "Pending" });
    await expect(pendingList).toBeVisible();
    const stat = (label: string) => page.getByText(label, { exact: true }).locator("xpath=following-sibling::p[1]");
    await expect(stat("Assigned Projects")).toHaveText("3");
    await expect(stat("Pending Verifications")).toHaveText("4");
    await expect(stat("Completed")).toHaveText("5");
    // The in-verification milestone seeded 2 days before its due date carries the Urgent badge (1 day once the run
    // has passed midnight since the demo data was seeded).
    const panels = queueItem(page, "Panel and inverter delivery");
    const panelsId = (await panels.getByRole("link", { name: /^View Details/ }).getAttribute("href"))?.split("/").pop();
    const { dueDate } = await (await page.request.get(`/api/milestones/${panelsId}`)).json();
    const days = daysUntil(dueDate);
    expect([1, 2]).toContain(days);
    await expect(panels.getByText(`Urgent · ${days} ${days === 1 ? "day" : "days"} left`)).toBeVisible();
    await screenshot(page, "verifications-desktop");

    // Search over title and description.
    await expect(page.getByText("Showing 4 of 4 pending verifications")).toBeVisible();
    await page.getByLabel("Search pending verifications").fill("lithium iron");
    await expect(pendingList.getByRole("heading")).toHaveText(["Battery storage installation"]);
    await expect(page.getByText("Showing 1 of 1 pending verification", { exact: true })).toBeVisible();
    await page.getByLabel("Search pending verifications").fill("no such milestone");
    await expect(
      page.getByText("No pending milestone’s title or description contains “no such milestone”."),
    ).toBeVisible();
    await page.getByLabel("Search pending verifications").fill("");

    const before = await project(page, MOJAVE);
    expect(before.disbursedCapital).toBe(3_000_000);
    await queueItem(page, "Battery storage installation").getByRole("button", { name: "Start Verification" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Milestone Verification" })).toBeVisible();
    await expect(dialog.getByRole("tab", { name: "Checklist" })).toBeDisabled();
    await expect(dialog.getByRole("tab", { name: "Report" })).toBeDisabled();
    await expect(progressText(page)).toHaveText("0%");
    await dialog.getByRole("button", { name: "Start Verification Process" }).click();
    await expectToast(page, "Verification started");

    await expect(dialog.getByRole("tab", { name: "Checklist", selected: true })).toBeVisible();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="verification-progress"]')?.textContent === "25%",
    );
    await expect(
      dialog.getByText("Complete all checklist items before approving or rejecting this milestone."),
    ).toBeVisible();
    for (const item of [
      "Documentation review complete",
      "Compliance with project standards verified",
      "Quality standards met",
    ]) {
      await dialog.getByLabel(item).check();
    }
    await page.waitForFunction(
      () => document.querySelector('[data-testid="verification-progress"]')?.textContent === "63%",
    );
    await screenshot(page, "verification-dialog-checklist-desktop");

    await dialog.getByRole("tab", { name: "Overview" }).click();
    await dialog.getByLabel("Upload Evidence").setInputFiles([
      { name: "delivery-note.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(300_000, 1) },
      { name: "site-photo.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(150_000, 2) },
    ]);
    await expectToast(page, "2 file(s) uploaded successfully");
    const files = dialog.getByRole("list", { name: "Evidence files" });
    await expect(files.getByText("delivery-note.pdf")).toBeVisible();
    await expect(files.getByText("site-photo.jpg")).toBeVisible();
    await expect(files.getByText(/^293 KB · /)).toBeVisible();
    await expect(files.getByRole("button", { name: "Remove site-photo.jpg" })).toHaveCount(1);
    await screenshot(page, "verification-dialog-evidence-desktop");

    await dialog.getByLabel("Comments").fill("Delivery notes and photos match the purchase order.");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await expectToast(page, "Milestone verified");
    await dialog.getByRole("tab", { name: "Report" }).click();
    await expect(dialog.getByText("Delivery notes and photos match the purchase order.")).toBeVisible();
    await dialog.getByRole("button", { name: "Close", exact: true }).first().click();
    await expect(dialog).not.toBeAttached();

    const after = await project(page, MOJAVE);
    expect(after.disbursedCapital).toBe(6_000_000);
    await page.goto(`/projects/${after.id}`);
    await expect(page.getByText("$6,000,000").first()).toBeVisible();
    await expect(page.getByText("50%").first()).toBeVisible();
    await screenshot(page, "project-after-approval-desktop");
    await context.close();
  });

  test("a rejection with a reason, the owner's resubmission and a second verification", async () => {
    const verifier = await suite.page(DESKTOP);
    await signIn(verifier.page, DEMO.verifier);
    await verifier.page.goto("/verifications");
    const title = "Grid interconnection";
    await expect(queueItem(verifier.page, title)).toBeVisible();
    const milestoneId = await milestoneIdFromQueue(verifier.page, title);
    await queueItem(verifier.page, title).getByRole("button", { name: "Start Verification" }).click();
    const dialog = verifier.page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Start Verification Process" }).click();
    await expectToast(verifier.page, "Verification started");

    // A rejection needs a reason: the server says so, and nothing changes.
    await dialog.getByRole("button", { name: "Reject" }).click();
    await expectToast(verifier.page, "Error rejecting milestone");
    await expect(dialog.getByText("A reason for the rejection is required.").first()).toBeVisible();
    await dialog.getByLabel("Comments").fill("The interconnection agreement is not signed by the grid operator.");
    await dialog.getByRole("button", { name: "Reject" }).click();
    await expectToast(verifier.page, "Milestone rejected");
    await verifier.page.keyboard.press("Escape");
    await expect(dialog).not.toBeAttached();

    // The owner sees the reason and resubmits.
    const owner = await suite.page(DESKTOP);
    await signIn(owner.page, DEMO.owner);
    await owner.page.goto(`/milestones/${milestoneId}`);
    await expect(owner.page.getByRole("heading", { name: title })).toBeVisible();
    await owner.page.getByRole("tab", { name: "Verification" }).click();
    await expect(
      owner.page.getByText("The interconnection agreement is not signed by the grid operator.").first(),
    ).toBeVisible();
    await expect(owner.page.getByRole("list", { name: "Milestone history" }).getByText("Rejected")).toBeVisible();
    await screenshot(owner.page, "milestone-rejected-owner-desktop");
    await owner.page.getByRole("button", { name: "Resubmit" }).click();
    await expectToast(owner.page, "Milestone updated");
    await expect(owner.page.getByRole("button", { name: "Mark as delayed" })).toBeVisible();
    await owner.context.close();

    // The verifier verifies it again from the milestone page and submits the report.
    await verifier.page.goto(`/milestones/${milestoneId}`);
    await verifier.page.getByRole("button", { name: "Start Verification" }).click();
    await dialog.getByRole("button", { name: "Start Verification Process" }).click();
    await expectToast(verifier.page, "Verification started");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await expectToast(verifier.page, "Milestone verified");
    await dialog.getByRole("tab", { name: "Report" }).click();
    await expect(dialog.getByText("No comments provided.")).toBeVisible();
    await dialog.getByRole("button", { name: "Submit Report" }).click();
    await expectToast(verifier.page, "Report submitted");
    await expect(dialog).not.toBeAttached();
    await verifier.page.getByRole("tab", { name: "Verification" }).click();
    await expect(
      verifier.page.getByRole("list", { name: "Milestone history" }).getByText("Approved; capital released"),
    ).toBeVisible();
    await screenshot(verifier.page, "milestone-verified-desktop");

    await verifier.page.goto("/reports");
    await expect(verifier.page.getByRole("table", { name: "Verification reports" }).getByText(title)).toBeVisible();
    await screenshot(verifier.page, "reports-desktop");
    await verifier.context.close();
  });

  test("a decision under the project's default release rule names the rule as the default, not as a version 0", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.owner);
    const rejected = await (await page.request.get("/api/milestones?status=rejected")).json();
    const frame = rejected.items.find((m: { title: string }) => m.title === "Structural frame, block A");
    await page.goto(`/milestones/${frame.id}`);
    await page.getByRole("tab", { name: "Verification" }).click();
    const approvals = page.getByRole("region", { name: "Approvals" });
    await expect(approvals.getByText(/^Release rule \(default\): /)).toBeVisible();
    await expect(approvals).not.toContainText("version 0");
    await context.close();
  });

  test("works at phone width", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.verifier);
    await page.goto("/verifications");
    await expect(page.getByRole("list", { name: "Pending" })).toBeVisible();
    await screenshot(page, "verifications-phone");
    await page.getByRole("tab", { name: "Delayed" }).click();
    await queueItem(page, "Facade and glazing").getByRole("button", { name: "Resume Verification" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("button", { name: "Resume" })).toBeVisible();
    await screenshot(page, "verification-dialog-phone");
    await dialog.getByRole("button", { name: "Resume" }).click();
    await expectToast(page, "Verification started");
    await expect(dialog.getByRole("button", { name: "Approve" })).toBeVisible();
    await page.keyboard.press("Escape");
    await page.getByRole("tab", { name: "Completed" }).click();
    await expect(page.getByRole("list", { name: "Completed" })).toBeVisible();
    await screenshot(page, "verifications-completed-phone");
    await context.close();
  });
});
