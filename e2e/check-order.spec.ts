// The order of checks on a decision: what is wrong with the request is said before anyone is asked for a
// second-factor code, and the code prompt's words follow the switch to a recovery code. Then the next round, in the
// same dialog, starts from an empty form.
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { expect, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, DESKTOP, expectToast, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("order of checks", () => {
  test("a partial approval without a reason is refused before the code is asked; the recovery-code prompt says so", async () => {
    // The verifier sets up an authenticator app in one session (which passes the second factor there) ...
    const enrolling = await suite.page(DESKTOP);
    await signIn(enrolling.page, DEMO.verifier);
    // The first second factor of a session that has passed none: the password is typed again.
    const setup = await (
      await enrolling.page.request.post("/api/auth/mfa/totp/setup", { data: { password: DEMO_PASSWORD } })
    ).json();
    const code = generateHOTP(decodeBase32IgnorePadding(setup.secret), BigInt(Math.floor(Date.now() / 30_000)), 6);
    const enabled = await enrolling.page.request.post("/api/auth/mfa/totp/enable", {
      data: { code, password: DEMO_PASSWORD },
    });
    expect(enabled.status()).toBe(200);
    const { recoveryCodes } = (await enabled.json()) as { recoveryCodes: string[] };
    await enrolling.context.close();

    // ... and decides in another, which has not passed it.
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.verifier);
    await page.goto("/verifications");
    const item = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Panel and inverter delivery" }) });
    const details = await item
      .getByRole("link", { name: "View Details: Panel and inverter delivery" })
      .getAttribute("href");
    await item.getByRole("button", { name: "Continue Verification" }).click();
    const dialog = page.getByRole("dialog", { name: "Milestone Verification" });
    await dialog.getByLabel("Share to release (%)").fill("60");
    await dialog.getByRole("button", { name: "Approve" }).click();
    const reason = "Give a reason of at least 10 characters for approving only part of the amount.";
    await expect(dialog.getByText(reason)).toBeVisible();
    const prompt = page.getByRole("dialog", { name: "Confirm it's you" });
    await expect(prompt).toHaveCount(0);
    await screenshot(page, "check-order-reason-first", { fullPage: false });

    // With the reason, the code is asked; in recovery-code mode the words ask for a recovery code.
    await dialog.getByLabel("Comments").fill("Only the panels were delivered; the inverters follow next month.");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await expect(prompt).toBeVisible();
    await expect(prompt).toContainText("Enter the code from your authenticator app to continue.");
    await prompt.getByRole("button", { name: "Use a recovery code instead" }).click();
    await expect(prompt.getByText("Enter one of your recovery codes to continue; each code works once.")).toBeVisible();
    await expect(prompt).not.toContainText("authenticator app to continue");
    await screenshot(page, "check-order-recovery-prompt", { fullPage: false });
    await prompt.getByLabel("Recovery code").fill(recoveryCodes[0]);
    await prompt.getByRole("button", { name: "Verify" }).click();
    await expectToast(page, "Part released");

    // The rest is verified in a new round, which starts from an empty form: the comment written for this approval is
    // not left in the box, where a Reject would have sent it as the rejection's reason.
    await dialog.getByRole("button", { name: "Start Verification Process" }).click();
    await expectToast(page, "Verification started");
    await expect(dialog.getByLabel("Comments")).toHaveValue("");
    // What this round decides is what stays open, not the milestone's whole amount.
    await dialog.getByRole("tab", { name: "Overview" }).click();
    await expect(dialog.getByText("$1,400,000 open of $3,500,000")).toBeVisible();
    // The partial approval was the last round's: nothing decided in this one is voided by a file.
    await expect(dialog.getByText(/decisions? (was|were) made in this round/)).toHaveCount(0);
    await screenshot(page, "check-order-open-amount", { fullPage: false });
    await dialog.getByRole("tab", { name: "Checklist" }).click();
    await dialog.getByRole("button", { name: "Reject" }).click();
    await expect(dialog.getByText("A reason for the rejection is required.")).toBeVisible();
    await screenshot(page, "check-order-next-round-empty", { fullPage: false });
    // Its approval is its own (a new idempotency key), not a replay of the partial one: the rest is released.
    await dialog.getByRole("button", { name: "Approve" }).click();
    await expectToast(page, "Milestone verified");

    // The milestone's history tells the partial approval from the one that released the rest.
    await page.goto(details!);
    await page.getByRole("tab", { name: "Verification" }).click();
    const history = page.getByRole("list", { name: "Milestone history" });
    await expect(history.getByRole("listitem").filter({ hasText: "Approved; capital released" })).toHaveCount(2);
    await expect(history).toContainText(
      "Part released: $2,100,000; $1,400,000 stays open for a follow-up verification.",
    );
    await context.close();
  });
});
