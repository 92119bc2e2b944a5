import { describe, expect, it } from "vitest";
import { DEMO, DESKTOP, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/vitest-suite";

const suite = useBrowserSuite();

describe("sign-up and sign-in", () => {
  it("refuses a weak password with reasons, accepts a good one and returns to the login tab", async () => {
    const { context, page } = await suite.page();
    await page.goto("/login");
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expectToast(page, "Please fill in all fields");

    await page.getByLabel("Full Name").fill("Priya Raman");
    await page.getByLabel("Email").fill("priya@example.test");
    await page.getByLabel("Password").fill("password1234");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expectToast(page, "Error signing up");
    await page.getByText("Choose a stronger password:").waitFor();
    await screenshot(page, "signup-weak-password-desktop");

    await page.getByLabel("Password").fill("granite weather tulip 58");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expectToast(page, "Registration successful! Please check your email for verification.");
    await expect(page.getByRole("tab", { name: "Login" }).getAttribute("aria-selected")).resolves.toBe("true");

    await page.getByLabel("Password").fill("granite weather tulip 58");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Successfully signed in!");
    await page.getByText("Welcome back, Priya Raman").waitFor();
    await expect(page.getByTestId("role-label").textContent()).resolves.toBe("Project Owner");
    await context.close();
  });

  it("shows the validation toast for missing sign-in fields and the failure toast for a wrong password", async () => {
    const { context, page } = await suite.page();
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(page, "Please enter both email and password");
    await page.getByLabel("Email").fill(DEMO.owner);
    await page.getByLabel("Password").fill("not the right one");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expectToast(page, "Invalid email or password.");
    await screenshot(page, "login-error-desktop");
    await context.close();
  });
});

describe("the signed-in shell", () => {
  const expected: Record<keyof typeof DEMO, string[]> = {
    investor: ["Home", "Projects", "Milestones", "Verifiers", "Reports"],
    owner: ["Home", "Projects", "Milestones"],
    verifier: ["Home", "Verifications", "Field", "Reports"],
    admin: ["Home", "Users", "Projects", "Verifiers", "Settings"],
  };

  for (const role of Object.keys(DEMO) as (keyof typeof DEMO)[]) {
    it(`shows the ${role}'s side navigation, label and role`, async () => {
      const { context, page } = await suite.page();
      await signIn(page, DEMO[role]);
      const links = page.getByRole("navigation", { name: "Side navigation" }).getByRole("link");
      expect(await links.allTextContents()).toEqual(expected[role].map((label) => expect.stringContaining(label)));
      expect(await page.getByTestId("user-label").textContent()).toBe(DEMO[role].split("@")[0]);
      await screenshot(page, `dashboard-${role}-desktop`);
      await context.close();
    });
  }

  it("signs out, then protects routes and keeps /login for signed-out visitors", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.owner);
    await page.goto("/login");
    await page.waitForURL("**/dashboard");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/login");
    // A protected page sends the visitor to sign in, and remembers where they were going.
    await page.goto("/dashboard");
    await page.waitForURL("**/login?next=%2Fdashboard");
    await page.goto("/notifications");
    await page.waitForURL("**/login?next=%2Fnotifications");
    await context.close();
  });

  it("offers the bottom drawer at phone width", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.verifier);
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    for (const label of ["Home", "Dashboard", "Notifications", "Verifications", "Reports", "Log out"])
      await drawer.getByText(label, { exact: true }).waitFor();
    await screenshot(page, "app-drawer-phone", { fullPage: false });
    // The role's links reach their screens on a phone, where the sidebar is hidden.
    await drawer.getByRole("link", { name: "Verifications" }).click();
    await page.waitForURL("**/verifications");
    await page.getByRole("button", { name: "Open menu" }).click();
    await drawer.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL("**/login");
    await screenshot(page, "login-phone");
    await context.close();
  });
});

describe("not found", () => {
  it("shows 404, the text and a link home, and logs the path", async () => {
    const { context, page } = await suite.page(DESKTOP);
    const errors: string[] = [];
    page.on("console", (message) => errors.push(message.text()));
    await page.goto("/no/such/page");
    await page.getByRole("heading", { name: "404" }).waitFor();
    await page.getByText("Oops! Page not found").waitFor();
    await page.getByRole("link", { name: "Return to Home" }).waitFor();
    expect(errors.some((line) => line.includes("/no/such/page"))).toBe(true);
    await screenshot(page, "not-found-desktop");
    await context.close();
  });
});
