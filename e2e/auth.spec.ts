import { expect, test } from "@playwright/test";
import { DEMO, DEMO_PASSWORD, DESKTOP, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("sign-up and sign-in", () => {
  test("refuses a weak password with reasons, accepts a good one and returns to the login tab", async () => {
    const { context, page } = await suite.page();
    await page.goto("/login");
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expectToast(page, "Please fill in all fields");
    await expect(page.getByLabel("Full Name")).toBeFocused();

    await page.getByLabel("Full Name").fill("Priya Raman");
    await page.getByLabel("Email").fill("priya@example.test");
    await page.getByLabel("Password").fill("password1234");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expectToast(page, "Error signing up");
    await expect(page.getByText("Choose a stronger password:")).toBeVisible();
    await expect(page.getByLabel("Password")).toBeFocused();
    await screenshot(page, "signup-weak-password-desktop");

    await page.getByLabel("Password").fill("granite weather tulip 58");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expectToast(page, "Registration successful! Please check your email for verification.");
    await expect(page.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true");

    await page.getByLabel("Password").fill("granite weather tulip 58");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL("**/dashboard");
    await expectToast(page, "Successfully signed in!");
    await expect(page.getByText("Welcome back, Priya Raman")).toBeVisible();
    await expect(page.getByTestId("role-label")).toHaveText("Project Owner");
    await context.close();
  });

  test("/signup opens the login page on its Sign Up tab", async () => {
    const { context, page } = await suite.page();
    // The server knows the address (not a 404), and the app sends it on to the login page's sign-up tab.
    const response = await page.goto("/signup");
    expect(response?.status()).toBe(200);
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("tab") === "signup");
    await expect(page.getByRole("tab", { name: "Sign Up" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByLabel("Full Name")).toBeVisible();
    // The tabs still switch.
    await page.getByRole("tab", { name: "Login" }).click();
    await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
    await context.close();
  });

  test("shows the validation toast for missing sign-in fields and the failure toast for a wrong password", async () => {
    for (const [viewport, name] of [
      [DESKTOP, "desktop"],
      [PHONE, "phone"],
    ] as const) {
      const { context, page } = await suite.page(viewport);
      await page.goto("/login");
      await page.getByRole("button", { name: "Sign In" }).click();
      await expectToast(page, "Please enter both email and password");
      // The keyboard is put where the user has to type next.
      await expect(page.getByLabel("Email")).toBeFocused();
      await page.getByLabel("Email").fill(DEMO.owner);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByLabel("Password")).toBeFocused();
      await page.getByLabel("Password").fill("not the right one");
      // Tab to the button and press it, as a keyboard user does: it is disabled while signing in.
      await page.getByLabel("Password").press("Tab");
      await expect(page.getByRole("button", { name: "Sign In" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expectToast(page, "Invalid email or password.");
      await expect(page.getByLabel("Password")).toBeFocused();
      await expect(page.getByLabel("Email")).toHaveValue(DEMO.owner);
      // The wrong password is selected: typing replaces it.
      await page.keyboard.type(DEMO_PASSWORD);
      await expect(page.getByLabel("Password")).toHaveValue(DEMO_PASSWORD);
      await screenshot(page, `login-error-${name}`, { fullPage: false });
      await page.keyboard.press("Enter");
      await page.waitForURL("**/dashboard");
      await context.close();
    }
  });
});

test.describe("the signed-in shell", () => {
  const expected: Record<keyof typeof DEMO, string[]> = {
    investor: ["Home", "Projects", "Milestones", "Verifiers", "Reports"],
    owner: ["Home", "Projects", "Milestones"],
    verifier: ["Home", "Verifications", "Field", "Reports"],
    admin: ["Home", "Users", "Projects", "Verifiers", "Settings"],
  };

  for (const role of Object.keys(DEMO) as (keyof typeof DEMO)[]) {
    test(`shows the ${role}'s side navigation, label and role`, async () => {
      const { context, page } = await suite.page();
      await signIn(page, DEMO[role]);
      const links = page.getByRole("navigation", { name: "Side navigation" }).getByRole("link");
      // Each link says its label (next to a count or a badge, on some).
      await expect(links).toHaveText(expected[role].map((label) => new RegExp(label)));
      await expect(page.getByTestId("user-label")).toHaveText(DEMO[role].split("@")[0]);
      await screenshot(page, `dashboard-${role}-desktop`);
      await context.close();
    });
  }

  test("signs out, then protects routes and keeps /login for signed-out visitors", async () => {
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

  test("offers the bottom drawer at phone width", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.verifier);
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    for (const label of ["Home", "Dashboard", "Notifications", "Verifications", "Reports", "Log out"])
      await expect(drawer.getByText(label, { exact: true })).toBeVisible();
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

test.describe("not found", () => {
  test("answers 404 and shows 404, the text and a link home, and logs the path", async () => {
    const { context, page } = await suite.page(DESKTOP);
    const errors: string[] = [];
    page.on("console", (message) => errors.push(message.text()));
    // The server says so too (a crawler or a link checker reads the status, not the page).
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to Home" })).toBeVisible();
    expect(errors.some((line) => line.includes("/no/such/page"))).toBe(true);
    await screenshot(page, "not-found-desktop");
    // The link home still works from a page the server answered 404.
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await context.close();
  });

  test("answers 404 for a signed-in person's mistyped address, and 200 for a page whose record is unknown", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    const response = await page.goto("/projects/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to Home" })).toBeVisible();
    // The page decides after reading it: the server only knows the address is one of the app's pages.
    const unknownRecord = await page.goto("/projects/00000000-0000-4000-8000-000000000000");
    expect(unknownRecord?.status()).toBe(200);
    await context.close();
  });
});
