// Passkeys in a real browser, through Chromium's virtual authenticator (CDP WebAuthn, user verification on, a
// resident-key platform authenticator, as a phone's would be): register one under Account → Security, pass the
// second factor for an approval with it, sign in with it (no email typed), revoke it, and see it refused.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, DESKTOP, expectToast, PHONE, screenshot, signIn, startAndApprove } from "./support/app";
import { useBrowserSuite } from "./support/suite";

// WebAuthn needs a domain (not an IP address) as the relying party: this suite's server is PUBLIC_URL=localhost.
const suite = useBrowserSuite({}, "localhost");

async function virtualAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** Signs the page's session out behind its back: its event stream ends with the session, and it goes to sign-in. */
async function signOut(page: Page) {
  await page.request.post("/api/auth/sign-out");
  await page.waitForURL(/\/login\?next=/);
}

test.describe("passkeys", () => {
  test("register → confirm an approval with it → sign in with it → revoke → refused", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await virtualAuthenticator(context, page);
    await signIn(page, DEMO.verifier);

    // Register a passkey under Account → Security.
    await page.goto("/account#security");
    await expect(page.getByRole("heading", { name: "Passkeys" })).toBeVisible();
    await expect(page.getByText("No passkeys yet.")).toBeVisible();
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByRole("button", { name: "Create passkey" }).click();
    await expect(page.getByText("Name this passkey, e.g. “Work laptop”.")).toBeVisible();
    await page.getByLabel("Device name").fill("Site phone");
    // The password is typed again (a session alone never adds a passkey).
    await page.getByRole("button", { name: "Create passkey" }).click();
    await expect(page.getByText("Enter your password.")).toBeVisible();
    await page.getByLabel("Your password").fill("not the password");
    await page.getByRole("button", { name: "Create passkey" }).click();
    await expect(page.getByText("That password is not correct.")).toBeVisible();
    await page.getByLabel("Your password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Create passkey" }).click();
    await expectToast(page, '"Site phone" can now sign you in and confirm actions.');
    const list = page.getByRole("list", { name: "Passkeys" });
    await expect(list.getByText("Site phone")).toBeVisible();
    await expect(list.getByText(/Added .* · not used yet/)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Push notifications" })).toBeVisible();
    await screenshot(page, "passkeys-account-desktop");

    const phone = await suite.page(PHONE);
    await phone.context.addCookies(await context.cookies());
    await phone.page.goto("/account#security");
    await expect(phone.page.getByRole("list", { name: "Passkeys" }).getByText("Site phone")).toBeVisible();
    await expect(phone.page.getByRole("heading", { name: "Push notifications" })).toBeVisible();
    await screenshot(phone.page, "passkeys-account-phone");
    await phone.context.close();

    // A new password sign-in has not passed the second factor: approving asks, and the passkey answers.
    await signOut(page);
    await signIn(page, DEMO.verifier);
    await startAndApprove(page, "Battery storage installation");
    const prompt = page.getByRole("dialog", { name: "Confirm it's you" });
    await expect(prompt.getByText("Use your passkey to continue.")).toBeVisible();
    await screenshot(page, "passkeys-prompt-desktop", { fullPage: false });
    await prompt.getByRole("button", { name: "Use a passkey" }).click();
    await expectToast(page, "Milestone verified");
    await expect(prompt).not.toBeAttached();

    // Sign in with the passkey alone: the browser offers it, no email or password is typed.
    await signOut(page);
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with a passkey" }).click();
    await page.waitForURL("**/dashboard");
    const session = await (await page.request.get("/api/auth/session")).json();
    expect(session.user.email).toBe(DEMO.verifier);
    const status = await (await page.request.get("/api/auth/mfa")).json();
    expect(status).toMatchObject({ enrolled: true, totp: false, passkeys: 1 });
    expect(status.validUntil).not.toBeNull();

    // Revoke it from the web; it is refused from then on.
    await page.goto("/account#security");
    await expect(list.getByText(/last used/)).toBeVisible();
    // Even minutes after passing the second factor with it, revoking asks for the password: a wrong one is shown
    // under the field, which keeps the keyboard, and nothing is revoked.
    await page.getByRole("button", { name: "Revoke Site phone" }).click();
    const revoke = page.getByRole("alertdialog", { name: 'Revoke "Site phone"?' });
    await expect(revoke.getByLabel("Your password")).toBeFocused();
    await revoke.getByRole("button", { name: "Revoke passkey" }).click();
    await expect(revoke.getByText("Enter your password.")).toBeVisible();
    await revoke.getByLabel("Your password").fill("not the password");
    await revoke.getByRole("button", { name: "Revoke passkey" }).click();
    await expect(revoke.getByText("That password is not correct.")).toBeVisible();
    await expect(revoke.getByLabel("Your password")).toBeFocused();
    await screenshot(page, "passkeys-revoke-desktop", { fullPage: false });
    await page.screenshot({ path: "/tmp/stepup-revoke-1280.png" });
    await revoke.getByLabel("Your password").fill(DEMO_PASSWORD);
    await revoke.getByRole("button", { name: "Revoke passkey" }).click();
    await expectToast(page, '"Site phone" can no longer be used.');
    await expect(page.getByText("No passkeys yet.")).toBeVisible();
    await signOut(page);
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with a passkey" }).click();
    await expectToast(page, "This passkey was revoked. Use another passkey or your authenticator app.");
    expect(page.url()).toContain("/login");
    expect((await (await page.request.get("/api/auth/session")).json()).user).toBeNull();
    await context.close();
  });
});
