// Release certificates in a real browser: an investor downloads a settled release's certificate from the
// milestone page, and anyone following its QR link to /verify sees that it matches, or that a forged one does not.

import { expect, test } from "@playwright/test";
import type { ReleaseDto } from "@tranche/domain";
import { DEMO, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("release certificates", () => {
  test("downloads from the milestone page, and checks at /verify on desktop and phone", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    const list = (await (await page.request.get("/api/releases?status=settled")).json()) as { items: ReleaseDto[] };
    const release = list.items[0];
    expect(release).toBeDefined();

    await page.goto(`/milestones/${release.milestone.id}`);
    const link = page.getByRole("link", { name: "Download certificate" });
    await expect(link).toBeVisible();
    await link.scrollIntoViewIfNeeded();
    await screenshot(page, "milestone-release-certificate", { fullPage: false });
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^tranche-release-.+\.pdf$/);
    expect(await download.failure()).toBeNull();
    // The facts are fixed at first issue: a second request carries the same fingerprint the PDF prints.
    const again = await page.request.get(`/api/releases/${release.id}/certificate`);
    const fingerprint = again.headers()["x-certificate-fingerprint"];
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    await context.close();

    // Anyone, signed out, on a phone: the QR code's address.
    const phone = await suite.page(PHONE);
    await phone.page.goto(`/verify?release=${release.id}&hash=${fingerprint}`);
    await expect(phone.page.getByText("This certificate matches Tranche's record.")).toBeVisible();
    await expect(phone.page.getByText(release.project.name).first()).toBeVisible();
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(phone.page, "verify-certificate-phone");

    // Typed in by hand, one character off.
    const forged = `${fingerprint.startsWith("0") ? "1" : "0"}${fingerprint.slice(1)}`;
    await phone.page.getByLabel("Certificate fingerprint (SHA-256)").fill(forged);
    await phone.page.getByRole("button", { name: "Check certificate" }).click();
    await expect(phone.page.getByText("This certificate does not match Tranche's record.")).toBeVisible();
    await screenshot(phone.page, "verify-certificate-forged-phone");

    // A link cut short: a verdict all the same, and the field that is wrong.
    await phone.page.goto(`/verify?release=${release.id.slice(0, 12)}&hash=${fingerprint}`);
    await expect(phone.page.getByText("This certificate does not match Tranche's record.")).toBeVisible();
    await expect(phone.page.getByText("Enter the release id printed on the certificate.")).toBeVisible();

    // A link with the release id and no fingerprint: no verdict, the form asks for the fingerprint.
    await phone.page.goto(`/verify?release=${release.id}`);
    await expect(phone.page.getByText("Enter the 64-character fingerprint printed on the certificate.")).toBeVisible();
    await expect(phone.page.getByText("This certificate does not match Tranche's record.")).toHaveCount(0);
    await expect(phone.page.getByLabel("Release id")).toHaveValue(release.id);
    await phone.context.close();
  });
});
