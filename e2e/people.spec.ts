// Issue 12 (people): the app runs without SMTP_URL, so each email is kept in the outbox; the test reads it as
// an admin through GET /api/outbox/emails (what Settings → Outbox shows) and follows its link in a browser.
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();
const NEW_PASSWORD = "lantern harbour violet 73";
let admin: { context: BrowserContext; page: Page };

test.beforeAll(async () => {
  admin = await suite.page();
  await signIn(admin.page, DEMO.admin);
});

/** The stored email to `to` with this subject, once the worker has handled it. */
async function storedEmail(to: string, subject: string): Promise<{ text: string; link: string }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await admin.page.request.get("/api/outbox/emails");
    const emails = (await res.json()) as { to: string; subject: string; status: string; text: string; link: string }[];
    const found = emails.find((e) => e.to === to && e.subject === subject && e.status === "stored");
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no stored email "${subject}" to ${to}: ${JSON.stringify(emails)}`);
    await admin.page.waitForTimeout(250);
  }
}

test.describe("people", () => {
  test("invite → email link → set name and password → signed in with the role", async () => {
    const { page } = admin;
    await page.goto("/users");
    const form = page.getByRole("form", { name: "Invite someone" });
    await form.getByLabel("Email").fill("nadia.verifier@example.test");
    await form.getByLabel("Role").selectOption("verifier");
    await form.getByLabel("Organization (optional)").fill("GreenCheck Assurance");
    await form.getByRole("button", { name: "Send invitation" }).click();
    await expectToast(page, "Invitation sent");
    const pending = page.getByRole("button", { name: "Revoke invitation to nadia.verifier@example.test" });
    await expect(pending).toBeVisible();
    await screenshot(page, "people-invitations-desktop");

    const email = await storedEmail("nadia.verifier@example.test", "You are invited to Tranche");
    expect(email.text).toContain("invited you to join Tranche as a Verifier for GreenCheck Assurance");
    await page.goto("/settings");
    await page.getByText("You are invited to Tranche").first().click();
    await expect(page.getByText("Kept here (no mail server)").first()).toBeVisible();
    await screenshot(page, "people-outbox-desktop");

    const { context, page: invited } = await suite.page(PHONE);
    await invited.goto(email.link);
    await expect(invited.getByText("You are invited as")).toBeVisible();
    await invited.getByLabel("Full Name").fill("Nadia Okafor");
    await invited.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await invited.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await screenshot(invited, "people-accept-invitation-phone");
    await invited.getByRole("button", { name: "Create account and sign in" }).click();
    await invited.waitForURL("**/dashboard");
    await expectToast(invited, "You are signed in as Verifier.");
    await expect(invited.getByTestId("role-label")).toHaveText("Verifier");

    // The link worked once: it now says so, and the invitation left the pending list.
    await invited.goto(email.link);
    await expect(invited.getByText("This invitation cannot be used")).toBeVisible();
    await expect(invited.getByText(/already been used/)).toBeVisible();
    await page.goto("/users");
    await expect(page.getByRole("heading", { name: "Pending invitations" })).toBeVisible();
    await expect(pending).toHaveCount(0);
    await context.close();
  });

  test("invites with the optional organization left empty", async () => {
    const { page } = admin;
    await page.goto("/users");
    const form = page.getByRole("form", { name: "Invite someone" });
    await form.getByLabel("Email").fill("no.org@example.test");
    await form.getByLabel("Role").selectOption("investor");
    await form.getByRole("button", { name: "Send invitation" }).click();
    await expectToast(page, "Invitation sent");
    await expect(page.getByRole("button", { name: "Revoke invitation to no.org@example.test" })).toBeVisible();
  });

  test("the pending invitations fit a 1280 px laptop screen, their buttons in view without scrolling sideways", async () => {
    const { context, page } = await suite.page({ width: 1280, height: 800 });
    await signIn(page, DEMO.admin);
    await page.goto("/users");
    const form = page.getByRole("form", { name: "Invite someone" });
    await form.getByLabel("Email").fill("laptop.screen@example.test");
    await form.getByLabel("Role").selectOption("verifier");
    await form.getByLabel("Organization (optional)").fill("GreenCheck Assurance");
    await form.getByLabel("Harbor District Affordable Housing").check();
    await form.getByRole("button", { name: "Send invitation" }).click();
    await expectToast(page, "Invitation sent");
    const table = page.getByRole("region", { name: "Pending invitations, newest first" });
    await expect(table.getByRole("button", { name: "Revoke invitation to laptop.screen@example.test" })).toBeVisible();
    await expect.poll(() => table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expect(page.getByText("Scroll sideways to see every column")).toHaveCount(0);
    await screenshot(page, "people-invitations-laptop");
    await context.close();
  });

  test("an invitation whose sender is no longer an admin says it stopped, and works again once resent", async () => {
    const { page } = admin;
    // A second admin joins by invitation and invites someone in turn.
    const sent = await page.request.post("/api/invitations", {
      data: { email: "sam.second@example.test", role: "admin" },
    });
    expect(sent.status()).toBe(201);
    const invited = await storedEmail("sam.second@example.test", "You are invited to Tranche");
    const { context, page: second } = await suite.page();
    const joined = await second.request.post("/api/invitations/accept", {
      data: { token: new URL(invited.link).searchParams.get("token"), name: "Sam Second", password: NEW_PASSWORD },
    });
    expect(joined.status()).toBe(201);
    // An admin passes a second factor before changing access: an authenticator app, set up and enabled.
    const setup = await (
      await second.request.post("/api/auth/mfa/totp/setup", { data: { password: NEW_PASSWORD } })
    ).json();
    const code = generateHOTP(decodeBase32IgnorePadding(setup.secret), BigInt(Math.floor(Date.now() / 30_000)), 6);
    expect(
      (await second.request.post("/api/auth/mfa/totp/enable", { data: { code, password: NEW_PASSWORD } })).status(),
    ).toBe(200);
    const onward = await second.request.post("/api/invitations", {
      data: { email: "onward.investor@example.test", role: "investor" },
    });
    expect(onward.status()).toBe(201);
    await context.close();

    // The first admin makes the second an investor: the link the second sent stops, and the list says so.
    const found = await (await page.request.get("/api/users?q=sam.second")).json();
    const demoted = await page.request.patch(`/api/users/${found.items[0].id}`, { data: { role: "investor" } });
    expect(demoted.status()).toBe(200);
    await page.goto("/users");
    const table = page.getByRole("region", { name: "Pending invitations, newest first" });
    const row = table.getByRole("row").filter({ hasText: "onward.investor@example.test" });
    await expect(row).toContainText("Stopped: its sender is no longer an admin");
    await expect(row).toContainText("by Sam Second");
    await screenshot(page, "people-invitation-stopped");
    await row.getByRole("button", { name: "Resend invitation to onward.investor@example.test" }).click();
    await expectToast(page, "Invitation sent again");
    await expect(row).not.toContainText("Stopped");
    await expect(row).toContainText("Until");
  });

  test("sign-up emails a link that confirms the address; the account says unconfirmed until it is used", async () => {
    const { context, page } = await suite.page();
    await page.goto("/login");
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByLabel("Full Name").fill("Uma Unconfirmed");
    await page.getByLabel("Email").fill("uma.new@example.test");
    await page.getByLabel("Password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expectToast(page, "Registration successful! Please check your email for verification.");
    await signIn(page, "uma.new@example.test", NEW_PASSWORD);
    await page.goto("/account");
    await expect(page.getByText("(not confirmed yet)")).toBeVisible();
    const email = await storedEmail("uma.new@example.test", "Confirm your email for Tranche");
    await page.goto(email.link);
    await expect(page.getByText("Your email is confirmed")).toBeVisible();
    await page.goto("/account");
    await expect(page.getByText("(confirmed)")).toBeVisible();
    await context.close();
  });

  test("forgot password → email → reset → the old session is gone, the new password works", async () => {
    const old = await suite.page();
    await signIn(old.page, DEMO.investor);

    const { context, page } = await suite.page(PHONE);
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    // The login form has an Email field too: fill only once the page has changed.
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await page.getByLabel("Email").fill(DEMO.investor);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(
      page.getByText("If an account uses this email, a link to reset its password is on its way."),
    ).toBeVisible();
    await screenshot(page, "people-forgot-password-phone");

    const email = await storedEmail(DEMO.investor, "Reset your Tranche password");
    await page.goto(email.link);
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.waitForURL("**/login");
    await expectToast(page, "You were signed out everywhere.");
    await storedEmail(DEMO.investor, "Your Tranche password was changed");
    // Opened again, the used link says so at once, before any password is typed.
    await page.goto(email.link);
    await expect(page.getByText("This link cannot be used")).toBeVisible();
    await expect(page.getByText(/already been used/)).toBeVisible();
    await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);

    await old.page.goto("/projects");
    await old.page.waitForURL("**/login**");
    await signIn(page, DEMO.investor, NEW_PASSWORD);
    await expect(page.getByLabel("Email")).not.toBeAttached();
    await context.close();
    await old.context.close();

    const stale = await suite.page();
    await stale.page.goto("/login");
    await stale.page.getByLabel("Email").fill(DEMO.investor);
    await stale.page.getByLabel("Password").fill(DEMO_PASSWORD);
    await stale.page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(stale.page, "Invalid email or password.");
    await stale.context.close();
  });
});
