// Account → Security in a real browser: a verifier sets up an authenticator app (the test computes its codes
// with the same TOTP library), a new session's approval asks for the code and then goes through, and the
// verifier signs out their other session.
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { describe, expect, it } from "vitest";
import { DEMO, DESKTOP, expectToast, PHONE, screenshot, signIn, startAndApprove } from "./support/app";
import { useBrowserSuite } from "./support/vitest-suite";

const suite = useBrowserSuite();

/**
 * The app's code for the current 30-second step, or the next (the server accepts one step of drift and each step
 * once): enrolling with the current one and confirming with the next never reuses a step.
 */
const codeFor = (secret: string, ahead: 0 | 1) =>
  generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000) + ahead), 6);

describe("security", () => {
  it("enrol TOTP → approving asks for the code → approved; then sign out the other session", async () => {
    const first = await suite.page(DESKTOP);
    await signIn(first.page, DEMO.verifier);
    await first.page.goto("/account");
    await first.page.getByRole("heading", { name: "Authenticator app" }).waitFor();
    await first.page.getByRole("button", { name: "Set up authenticator app" }).click();
    await first.page.getByRole("img", { name: "QR code to scan with your authenticator app" }).waitFor();
    const secret = (await first.page.getByTestId("totp-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(first.page, "security-enrol-desktop");
    await first.page.getByLabel("Authentication code").fill("000000");
    await first.page.getByRole("button", { name: "Turn on" }).click();
    await first.page.getByText("That code is not valid.").waitFor();
    await first.page.getByLabel("Authentication code").fill(codeFor(secret, 0));
    await first.page.getByRole("button", { name: "Turn on" }).click();
    const codes = first.page.getByRole("region", { name: "Recovery codes" });
    await codes.waitFor();
    await expect(codes.getByRole("listitem").count()).resolves.toBe(10);
    await screenshot(first.page, "security-recovery-codes-desktop");
    await first.page.getByRole("button", { name: "I have saved them" }).click();
    await first.page.getByText("10 of 10 recovery codes left.").waitFor();

    // A second sign-in has not passed the second factor: approving asks for it, then goes through.
    const second = await suite.page(DESKTOP);
    const { page } = second;
    await signIn(page, DEMO.verifier);
    await startAndApprove(page, "Battery storage installation");

    const prompt = page.getByRole("dialog", { name: "Confirm it's you" });
    await prompt.waitFor();
    await screenshot(page, "security-prompt-desktop", { fullPage: false });
    await prompt.getByLabel("Authentication code").fill("123456");
    await prompt.getByRole("button", { name: "Verify" }).click();
    await prompt.getByText("That code is not valid.").waitFor();
    await prompt.getByLabel("Authentication code").fill(codeFor(secret, 1));
    await prompt.getByRole("button", { name: "Verify" }).click();
    await expectToast(page, "Milestone verified");
    await prompt.waitFor({ state: "detached" });

    // This session lists both, and signs the first one out.
    await page.goto("/account");
    const sessions = page.getByRole("list", { name: "Sessions" });
    await sessions.getByText("This device").waitFor();
    await expect(sessions.getByRole("listitem").count()).resolves.toBe(2);
    await page.getByText(/^Confirmed on this device until /).waitFor();
    await page.getByRole("button", { name: "Sign out all other sessions" }).click();
    await expectToast(page, "1 session was signed out.");
    await expect(sessions.getByRole("listitem").count()).resolves.toBe(1);
    const gone = await first.page.request.get("/api/auth/session");
    expect((await gone.json()).user).toBeNull();
    await screenshot(page, "security-account-desktop");

    const phone = await suite.page(PHONE);
    await phone.context.addCookies(await second.context.cookies());
    await phone.page.goto("/account");
    await phone.page.getByRole("list", { name: "Sessions" }).waitFor();
    await phone.page.getByText("10 of 10 recovery codes left.").waitFor();
    await screenshot(phone.page, "security-account-phone");
    await Promise.all([first.context.close(), second.context.close(), phone.context.close()]);
  });
});
