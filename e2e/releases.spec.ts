// Releases beyond Tranche, in the browser: an admin creates an API token for the custodian; the custodian
// settles a release with it and the owner's open milestone page goes from Instructed to Settled without a
// reload; a failed release is re-instructed by an admin from the project's finances.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();
let token = "";

async function milestoneId(
  page: Page,
  projectPrefix: string,
  title: string,
): Promise<{ id: string; projectId: string }> {
  const projects = await (await page.request.get("/api/projects")).json();
  const project = projects.items.find((p: { name: string }) => p.name.startsWith(projectPrefix));
  const detail = await (await page.request.get(`/api/projects/${project.id}`)).json();
  const milestone = detail.milestones.find((m: { title: string }) => m.title === title);
  return { id: milestone.id, projectId: project.id };
}

/** The page scrolls only vertically: wide tables scroll inside their own box. */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** The custodian's side: plain HTTP with the bearer token, as a bank's system would call. */
async function custodian(path: string, body?: unknown) {
  const res = await fetch(`${suite.app.url}/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function releaseOf(milestone: string) {
  const list = await custodian("/releases?limit=100");
  expect(list.status).toBe(200);
  return list.body.items.find((r: { milestone: { id: string } }) => r.milestone.id === milestone);
}

test.describe("releases and API tokens", () => {
  // Each test goes on from the one before (the token, the settled release): after a failure the rest are skipped,
  // and a retry runs them all again, on a fresh server.
  test.describe.configure({ mode: "serial" });

  test("an admin creates a token under Settings → Integrations; it is shown once and listed with its scopes", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.admin);
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Integrations" })).toBeVisible();
    await page.getByRole("button", { name: "Create token" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("Northwind Custody");
    await expect(dialog.getByRole("checkbox", { name: /releases:write/ })).toBeChecked();
    await dialog.getByRole("button", { name: "Create token" }).click();
    const shown = dialog.getByLabel("New API token");
    await expect(shown).toBeVisible();
    token = await shown.inputValue();
    expect(token).toMatch(/^trk_/);
    await expectToast(page, "API token created");
    await screenshot(page, "api-token-created", { fullPage: false });
    await dialog.getByRole("button", { name: "Done" }).click();
    const row = page.getByTestId("api-token-row").filter({ hasText: "Northwind Custody" }).first();
    await expect(row.getByText("releases:write")).toBeVisible();
    await expect(row.getByText("Never")).toBeVisible();
    // The token itself is nowhere on the page any more.
    expect(await page.content()).not.toContain(token);
    await screenshot(page, "settings-integrations");
    const phone = await suite.page(PHONE);
    await signIn(phone.page, DEMO.admin);
    await phone.page.goto("/settings");
    await expect(phone.page.getByTestId("api-token-row").first()).toBeVisible();
    await expect.poll(() => fitsWidth(phone.page)).toBe(true);
    await screenshot(phone.page, "settings-integrations-phone");
    await phone.context.close();
    await context.close();
  });

  test("on a 1280 px laptop screen the token names wrap between words, not inside them", async () => {
    const { context, page } = await suite.page({ width: 1280, height: 800 });
    await signIn(page, DEMO.admin);
    await page.goto("/settings");
    const name = page.getByTestId("api-token-row").getByText("Northwind Custody (demo)", { exact: true });
    await expect(name).toBeVisible();
    // A word laid out on two lines has two boxes.
    const broken = await name.evaluate((el) => {
      const text = el.firstChild as Text;
      return [...text.data.matchAll(/\S+/g)]
        .filter((word) => {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          return range.getClientRects().length > 1;
        })
        .map((word) => word[0]);
    });
    expect(broken).toEqual([]);
    await context.close();
  });

  test("the owner sees a release go from Instructed to Settled without reloading when the custodian settles it", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    const { id } = await milestoneId(page, "Mojave Solar", "Site preparation and permits");
    await page.goto(`/milestones/${id}`);
    const release = page.getByRole("region", { name: "Capital Release" });
    await expect(release.getByTestId("release-status").filter({ hasText: "Instructed" })).toBeVisible();
    await screenshot(page, "milestone-release-instructed");
    let navigations = 0;
    page.on("framenavigated", () => navigations++);

    const target = await releaseOf(id);
    expect(target.status).toBe("instructed");
    const settled = await custodian(`/releases/${target.id}/settle`, { reference: "NWC-2026-777001" });
    expect(settled.status).toBe(200);

    await expect(release.getByTestId("release-status").filter({ hasText: "Settled" })).toBeVisible({ timeout: 15_000 });
    await expect(release.getByText("NWC-2026-777001")).toBeVisible();
    expect(navigations).toBe(0);
    await screenshot(page, "milestone-release-settled");
    // The dashboard names released and settled apart.
    await page.goto("/dashboard");
    await expect(page.getByTestId("settled-figure").first()).toBeVisible();
    await screenshot(page, "owner-dashboard-released-settled");
    await context.close();
  });

  test("an admin re-instructs a failed release from the finances tab, after confirming", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.admin);
    const { id, projectId } = await milestoneId(page, "Harbor District", "Foundations and piling");
    const target = await releaseOf(id);
    const failed = await custodian(`/releases/${target.id}/fail`, { reason: "IBAN rejected by the receiving bank." });
    expect(failed.status).toBe(200);

    await page.goto(`/projects/${projectId}`);
    await page.getByRole("tab", { name: "Finances" }).click();
    const row = page.getByTestId("release-row").filter({ hasText: "Foundations and piling" });
    await expect(row.getByTestId("release-status").filter({ hasText: "Failed", visible: true })).toBeVisible();
    await expect(row.getByText("IBAN rejected by the receiving bank.").filter({ visible: true })).toBeVisible();
    await screenshot(page, "finances-release-failed");
    await row.getByRole("button", { name: "Re-instruct" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Re-instruct this release?")).toBeVisible();
    await screenshot(page, "release-reinstruct-dialog", { fullPage: false });
    await dialog.getByRole("button", { name: "Re-instruct" }).click();
    await expectToast(page, "Release re-instructed");
    await expect(row.getByTestId("release-status").filter({ hasText: "Instructed", visible: true })).toBeVisible();
    const again = await releaseOf(id);
    expect(again.id).toBe(target.id);
    expect(again.instructionId).not.toBe(target.instructionId);

    // Fail it again and cancel it: the reason is required.
    await custodian(`/releases/${target.id}/fail`, { reason: "Account closed." });
    await expect(row.getByTestId("release-status").filter({ hasText: "Failed", visible: true })).toBeVisible({
      timeout: 15_000,
    });
    await row.getByRole("button", { name: "Cancel release" }).click();
    await dialog.getByRole("button", { name: "Cancel release" }).click();
    await expect(dialog.getByText("A reason for the cancellation is required.")).toBeVisible();
    await dialog.getByLabel("Reason").fill("Project restructured; capital returned to the fund.");
    await dialog.getByRole("button", { name: "Cancel release" }).click();
    await expectToast(page, "Release cancelled");
    await expect(row.getByTestId("release-status").filter({ hasText: "Cancelled", visible: true })).toBeVisible();
    await screenshot(page, "finances-release-cancelled");
    const phone = await suite.page(PHONE);
    await signIn(phone.page, DEMO.admin);
    await phone.page.goto(`/projects/${projectId}`);
    await phone.page.getByRole("tab", { name: "Finances" }).click();
    await expect(phone.page.getByTestId("release-row").first()).toBeVisible();
    // The "Updated" column is hidden on a phone: its time is folded into the row's card.
    const updated = phone.page.getByTestId("release-row").first().getByTestId("release-updated-phone");
    await expect(updated).toBeVisible();
    await expect(updated).toHaveText(/^Updated [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM) \S+$/);
    await expect.poll(() => fitsWidth(phone.page)).toBe(true);
    await screenshot(phone.page, "finances-releases-phone");
    await phone.context.close();
    await context.close();
  });

  test("the investor's dashboard names released and settled apart, on a phone too", async () => {
    for (const viewport of [undefined, PHONE]) {
      const { context, page } = await suite.page(viewport);
      await signIn(page, DEMO.investor);
      const card = page.getByRole("group", { name: "Verified Disbursements" });
      await expect(card.getByTestId("settled-figure")).toBeVisible();
      // Seeded: Rural Clinics settled ($3M) and, after the test above, Mojave's first tranche ($3M).
      // One money format per card: compact, like the released total above it.
      await expect(card.getByText("Settled: $6M")).toBeVisible();
      await expect(card).not.toHaveText(/\$\d{1,3},\d{3}/);
      await screenshot(page, viewport ? "investor-dashboard-phone" : "investor-dashboard");
      await context.close();
    }
  });
});
