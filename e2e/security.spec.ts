// Account → Security in a real browser: a verifier sets up an authenticator app (the test computes its codes
// with the same TOTP library), a new session's approval asks for the code and then goes through, and the
// verifier signs out their other session, whose open page then goes to sign-in. An admin resets the second factor
// of a verifier who lost it, from Users.
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { expect, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, DESKTOP, expectToast, PHONE, screenshot, signIn, startAndApprove } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

/**
 * The app's code for the current 30-second step, or the next (the server accepts one step of drift and each step
 * once): enrolling with the current one and confirming with the next never reuses a step.
 */
const codeFor = (secret: string, ahead: 0 | 1) =>
  generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000) + ahead), 6);

test.describe("security", () => {
  test("enrol TOTP → approving asks for the code → approved; then sign out the other session", async () => {
    const first = await suite.page(DESKTOP);
    await signIn(first.page, DEMO.verifier);
    await first.page.goto("/account");
    await expect(first.page.getByRole("heading", { name: "Authenticator app" })).toBeVisible();
    await first.page.getByRole("button", { name: "Set up authenticator app" }).click();
    // The first second factor: the password is typed again before the QR code (a session alone never sets one up).
    await first.page.getByLabel("Your password").fill(DEMO_PASSWORD);
    await first.page.getByRole("button", { name: "Continue" }).click();
    await expect(first.page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
    await expect(first.page.getByTestId("totp-secret")).toHaveText(/^[A-Z2-7]{32}$/);
    const secret = (await first.page.getByTestId("totp-secret").textContent()) ?? "";
    await screenshot(first.page, "security-enrol-desktop");
    await first.page.getByLabel("Authentication code").fill("000000");
    await first.page.getByRole("button", { name: "Turn on" }).click();
    await expect(first.page.getByText("That code is not valid.")).toBeVisible();
    await first.page.getByLabel("Authentication code").fill(codeFor(secret, 0));
    await first.page.getByRole("button", { name: "Turn on" }).click();
    const codes = first.page.getByRole("region", { name: "Recovery codes" });
    await expect(codes).toBeVisible();
    await expect(codes.getByRole("listitem")).toHaveCount(10);
    await screenshot(first.page, "security-recovery-codes-desktop");
    await first.page.getByRole("button", { name: "I have saved them" }).click();
    await expect(first.page.getByText("10 of 10 recovery codes left.")).toBeVisible();

    // A second sign-in has not passed the second factor: approving asks for it, then goes through.
    const second = await suite.page(DESKTOP);
    const { page } = second;
    await signIn(page, DEMO.verifier);
    await startAndApprove(page, "Battery storage installation");

    const prompt = page.getByRole("dialog", { name: "Confirm it's you" });
    await expect(prompt).toBeVisible();
    await screenshot(page, "security-prompt-desktop", { fullPage: false });
    await prompt.getByLabel("Authentication code").fill("123456");
    await prompt.getByRole("button", { name: "Verify" }).click();
    await expect(prompt.getByText("That code is not valid.")).toBeVisible();
    await prompt.getByLabel("Authentication code").fill(codeFor(secret, 1));
    await prompt.getByRole("button", { name: "Verify" }).click();
    await expectToast(page, "Milestone verified");
    await expect(prompt).not.toBeAttached();

    // This session lists both, and signs the first one out.
    await page.goto("/account");
    const sessions = page.getByRole("list", { name: "Sessions" });
    await expect(sessions.getByText("This device")).toBeVisible();
    await expect(sessions.getByRole("listitem")).toHaveCount(2);
    await expect(page.getByText(/^Confirmed on this device until /)).toBeVisible();
    await page.getByRole("button", { name: "Sign out all other sessions" }).focus();
    await page.keyboard.press("Enter");
    await expectToast(page, "1 session was signed out.");
    // The button is disabled now, with no other session left: focus is on the card, not at the page's start.
    await expect(page.getByRole("heading", { name: "Active sessions" })).toBeFocused();
    await expect(sessions.getByRole("listitem")).toHaveCount(1);
    const gone = await first.page.request.get("/api/auth/session");
    expect((await gone.json()).user).toBeNull();
    // The signed-out device's open page learns it at once: its event stream ended with its session, and it goes
    // to sign-in instead of showing "Reconnecting…" for ever.
    await expect(first.page).toHaveURL(/\/login\?next=/);
    await screenshot(page, "security-account-desktop");

    const phone = await suite.page(PHONE);
    await phone.context.addCookies(await second.context.cookies());
    await phone.page.goto("/account");
    await expect(phone.page.getByRole("list", { name: "Sessions" })).toBeVisible();
    await expect(phone.page.getByText("10 of 10 recovery codes left.")).toBeVisible();
    await screenshot(phone.page, "security-account-phone");
    await Promise.all([first.context.close(), second.context.close(), phone.context.close()]);
  });

  test("keyboard: focus follows the authenticator card as set-up, codes and turning off replace what had it", async () => {
    const { page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    await page.goto("/account");

    // "Set up authenticator app" gives way to the password it asks for first, then to the form: focus is on each
    // field in turn, not back at the page's start.
    await page.getByRole("button", { name: "Set up authenticator app" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Your password")).toBeFocused();
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Authentication code")).toBeFocused();
    const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
    await page.keyboard.type(codeFor(secret, 0));
    await page.keyboard.press("Enter");
    // "Turn on" gives way to the codes, shown once: they have focus, and the next Tab reaches "Copy codes".
    const codes = page.getByRole("region", { name: "Recovery codes" });
    await expect(codes).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Copy codes" })).toBeFocused();
    await page.getByRole("button", { name: "I have saved them" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Authenticator app" })).toBeFocused();

    // Escape from the code dialog goes back to its opener, though its password field took focus as it opened.
    const replace = page.getByRole("button", { name: "New recovery codes" });
    await replace.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "New recovery codes" });
    await expect(dialog.getByLabel("Your password")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).not.toBeAttached();
    await expect(replace).toBeFocused();

    // Replacing the codes asks for the password too, even minutes after passing the second factor: a wrong one is
    // shown under its field, which takes the keyboard back, and the code is not used up.
    await page.keyboard.press("Enter");
    await page.keyboard.type("not the password");
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Authentication code")).toBeFocused();
    await page.keyboard.type(codeFor(secret, 1));
    await page.keyboard.press("Enter");
    await expect(dialog.getByText("That password is not correct.")).toBeVisible();
    await expect(dialog.getByLabel("Your password")).toBeFocused();
    await page.screenshot({ path: "/tmp/stepup-replace-390.png" });
    await dialog.getByLabel("Your password").fill(DEMO_PASSWORD);
    await dialog.getByLabel("Your password").press("Enter");
    // The dialog closes onto the new codes.
    await expect(dialog).not.toBeAttached();
    await expect(codes).toBeFocused();
    const recovery = (await codes.getByRole("listitem").first().textContent()) ?? "";
    await page.getByRole("button", { name: "I have saved them" }).click();

    // Turning it off with one of those codes: the dialog closes onto the card, and the next Tab sets it up again.
    await page.getByRole("button", { name: "Turn off" }).focus();
    await page.keyboard.press("Enter");
    const off = page.getByRole("dialog", { name: "Turn off the second factor" });
    await off.getByLabel("Your password").fill(DEMO_PASSWORD);
    await off.getByRole("button", { name: "Use a recovery code instead" }).click();
    await off.getByLabel("Recovery code").fill(recovery);
    await off.getByLabel("Recovery code").press("Enter");
    await expect(off).not.toBeAttached();
    await expect(page.getByRole("heading", { name: "Authenticator app" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Set up authenticator app" })).toBeFocused();
    await screenshot(page, "security-turn-off-phone");

    // Signing out one other session: its row leaves with the focused button; focus stays on the card.
    const other = await suite.page(DESKTOP);
    await signIn(other.page, DEMO.owner);
    await page.reload();
    const sessions = page.getByRole("list", { name: "Sessions" });
    await sessions.getByRole("button", { name: /^Sign out / }).focus();
    await page.keyboard.press("Enter");
    await expectToast(page, "is signed out.");
    await expect(sessions.getByRole("listitem")).toHaveCount(1);
    await expect(page.getByRole("heading", { name: "Active sessions" })).toBeFocused();
    await expect(other.page).toHaveURL(/\/login\?next=/);
    await other.context.close();
  });

  test("an admin resets a verifier's lost second factor from Users; they sign in with the password and set one up", async () => {
    // The verifier has an authenticator app (set up here unless the first test did) and a page open.
    const verifier = await suite.page(DESKTOP);
    await signIn(verifier.page, DEMO.verifier);
    const status = await (await verifier.page.request.get("/api/auth/mfa")).json();
    if (!status.totp) {
      const setup = await verifier.page.request.post("/api/auth/mfa/totp/setup", { data: { password: DEMO_PASSWORD } });
      const code = codeFor((await setup.json()).secret, 0);
      const enable = { data: { code, password: DEMO_PASSWORD } };
      expect((await verifier.page.request.post("/api/auth/mfa/totp/enable", enable)).status()).toBe(200);
    }
    await verifier.page.goto("/account");
    await expect(verifier.page.getByRole("heading", { name: "Authenticator app" })).toBeVisible();

    const users = "/users?q=verifier%40tranche.demo";
    const reset = { name: "Reset second factor of Vera Lindqvist" };
    const title = "Reset Vera Lindqvist's second factor?";

    // On a phone the action sits in the person's card; Cancel changes nothing.
    const phone = await suite.page(PHONE);
    await signIn(phone.page, DEMO.admin);
    await phone.page.goto(users);
    await phone.page.getByRole("button", reset).click();
    const phoneDialog = phone.page.getByRole("alertdialog", { name: title });
    await expect(phoneDialog).toBeVisible();
    await screenshot(phone.page, "users-reset-second-factor-phone", { fullPage: false });
    await phoneDialog.getByRole("button", { name: "Cancel" }).click();
    await expect(phoneDialog).not.toBeAttached();
    await phone.context.close();

    const { page } = await suite.page({ width: 1280, height: 800 });
    await signIn(page, DEMO.admin);
    await page.goto(users);
    // The admin's own row offers no reset: theirs is changed under Account → Security.
    await expect(page.getByRole("button", { name: /^Reset second factor of Avery Chen/ })).toHaveCount(0);
    await page.getByRole("button", reset).click();
    const dialog = page.getByRole("alertdialog", { name: title });
    await expect(dialog).toContainText(
      "Vera Lindqvist's authenticator app, recovery codes and passkeys will be removed, and every session they have will be signed out.",
    );
    await expect(dialog).toContainText(
      "They will set up a second factor again the next time they sign in with their password.",
    );
    await screenshot(page, "users-reset-second-factor-desktop", { fullPage: false });
    await dialog.getByRole("button", { name: "Reset second factor" }).click();
    await expectToast(page, "Vera Lindqvist is signed out and will set up a new second factor at their next sign-in.");
    await expect(dialog).not.toBeAttached();
    // The list updates: nothing is left to reset.
    await expect(page.getByRole("row", { name: /Vera Lindqvist/ })).toBeVisible();
    await expect(page.getByRole("button", reset)).toHaveCount(0);

    // The verifier's open page goes to sign-in; with the password they are back, with no second factor: setting one
    // up asks for the password again.
    await expect(verifier.page).toHaveURL(/\/login\?next=/);
    await signIn(verifier.page, DEMO.verifier);
    await verifier.page.goto("/account");
    await verifier.page.getByRole("button", { name: "Set up authenticator app" }).click();
    await expect(verifier.page.getByLabel("Your password")).toBeVisible();
    await Promise.all([verifier.context.close(), page.context().close()]);
  });
});
