import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { DEMO, DESKTOP, expectToast, openLive, PHONE, screenshot, signIn } from "./support/app";
import { PUBLIC_PAGES as PAGES } from "./support/public-pages";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite({ PUBLIC_FORM_LIMIT_PER_IP: "100" });

const shotName = (path: string) => (path === "/" ? "home" : path.slice(1).replace(/\//g, "-").slice(0, 40));

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test.describe("public pages", () => {
  let desktop: Page;
  let phone: Page;
  test.beforeAll(async () => {
    desktop = (await suite.page(DESKTOP)).page;
    phone = (await suite.page(PHONE)).page;
  });
  test.afterAll(async () => {
    await desktop?.context().close();
    await phone?.context().close();
  });

  for (const [path, heading] of PAGES) {
    test(`${path} renders its one h1 with landmarks and passes axe at desktop and phone width`, async () => {
      const failures: string[] = [];
      for (const [viewport, page] of [
        ["desktop", desktop],
        ["phone", phone],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        await expect(page.locator("h1"), `${path}: one h1`).toHaveCount(1);
        for (const role of ["banner", "main", "contentinfo"] as const) {
          await expect(page.getByRole(role), `${path}: one ${role} landmark`).toHaveCount(1);
        }
        for (const violation of await seriousViolations(page)) failures.push(`[${viewport}] ${violation}`);
        await screenshot(page, `public-${shotName(path)}-${viewport}`);
      }
      expect(failures).toEqual([]);
    });
  }

  test("shows a visible focus ring on keyboard focus", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/", { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.keyboard.press("Tab");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Tab");
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle))
      .toBe("solid");
    await context.close();
  });

  test("opens the Products menu with its two products and follows a link", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/", { waitUntil: "networkidle" });
    const products = page.getByRole("button", { name: "Products" });
    await products.click();
    await expect(products).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("link", { name: /Verification Platform/ })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(products).toHaveAttribute("aria-expanded", "false");
    await products.click();
    await page.getByRole("link", { name: /Governance Infrastructure/ }).click();
    await page.waitForURL("**/institutional-partners");
    await expect(
      page.getByRole("heading", { level: 1, name: "Oversight that limited partners can act on" }),
    ).toBeVisible();
    await expect(page.getByRole("contentinfo")).toHaveText(
      /© 2025 Tranche.*hello@tranche\.capital|hello@tranche\.capital.*© 2025 Tranche/s,
    );
    await context.close();
  });
});

test.describe("landing page", () => {
  test("recomputes the impact calculator from the sliders and the profile", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/", { waitUntil: "networkidle" });
    const value = page.getByTestId("impact-value");
    await expect(value).toHaveText("$900.0M");
    const capital = page.getByLabel("Capital under management");
    await expect(capital).toHaveValue("500");
    // Ten steps of $50M: 1000 × 12 × 0.15 = 1,800.0
    await capital.focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
    await expect(value).toHaveText("$1,800.0M");
    // Investments to the maximum: 1000 × 100 × 0.15 = 15,000.0
    await page.getByLabel("Number of investments").focus();
    await page.keyboard.press("End");
    await expect(value).toHaveText("$15,000.0M");
    // Growth profile, factor 0.8: 12,000.0; conservative, 1.2: 18,000.0
    await page.locator("label", { hasText: "Growth" }).click();
    await expect(value).toHaveText("$12,000.0M");
    await page.locator("label", { hasText: "Conservative" }).click();
    await expect(page.getByRole("radio", { name: /Conservative/ })).toBeChecked();
    await expect(value).toHaveText("$18,000.0M");
    // The 40/35/25 split of 18,000.0
    const section = page.locator("#impact");
    for (const part of ["$7,200.0M", "$6,300.0M", "$4,500.0M"]) await expect(section.getByText(part)).toBeVisible();
    await context.close();
  });

  test("takes in what a visitor entered before the page came alive", async () => {
    const { context, page } = await suite.page();
    // The app's code is held back until the visitor has acted on the prerendered page, as on a slow phone.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/", { waitUntil: "domcontentloaded" });
    await page.getByLabel("Capital under management").fill("2500");
    await page.locator("label", { hasText: "Growth" }).click();
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    release();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    // 2,500 × 12 × 0.15 × 0.8, and the slider's label with it.
    await expect(page.getByTestId("impact-value")).toHaveText("$3,600.0M");
    await expect(page.locator("#impact").getByText("$2,500M", { exact: true })).toBeVisible();
    await expect(page.getByRole("radio", { name: /Growth/ })).toBeChecked();
    // Afterwards the calculator answers as usual, from the values the visitor left: 2,550 × 12 × 0.15 × 0.8.
    await page.getByLabel("Capital under management").focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByTestId("impact-value")).toHaveText("$3,672.0M");
    await context.close();
  });

  test("keeps at most one FAQ answer open", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/#faq", { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { name: "Frequently asked questions" })).toBeVisible();
    const faq = page.locator("#faq");
    const questions = faq.getByRole("button");
    await expect(questions).toHaveCount(6);
    const expanded = faq.locator('button[aria-expanded="true"]');
    await expect(expanded).toHaveCount(1);
    await questions.nth(2).click();
    await expect(expanded).toHaveCount(1);
    await expect(questions.nth(2)).toHaveAttribute("aria-expanded", "true");
    await expect(questions.nth(0)).toHaveAttribute("aria-expanded", "false");
    await expect(faq.getByText(/The verifier must give a reason/)).toBeVisible();
    await questions.nth(4).click();
    await expect(expanded).toHaveCount(1);
    await expect(faq.getByText(/The verifier must give a reason/)).toBeHidden();
    await questions.nth(4).click();
    await expect(expanded).toHaveCount(0);
    await context.close();
  });

  test("loads without layout shift from fonts or late content", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await suite.page(viewport);
      await page.addInitScript(() => {
        const w = window as unknown as { __cls: number };
        w.__cls = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
            if (!entry.hadRecentInput) w.__cls += entry.value;
        }).observe({ type: "layout-shift", buffered: true });
      });
      await page.goto("/");
      await expect(page.getByTestId("impact-value")).toBeVisible();
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(500);
      const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
      expect(cls, `cumulative layout shift at ${viewport.width}px`).toBeLessThan(0.05);
      await context.close();
    }
  });

  test("lists three testimonials and six feature cards", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/", { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { name: "Trusted by allocators and sponsors" })).toBeVisible();
    await expect(page.locator("#testimonials figure")).toHaveCount(3);
    await expect(page.locator("#features li")).toHaveCount(6);
    await context.close();
  });
});

test.describe("forms that reach us", () => {
  test("validates the Request Demo form inline, stores the request, and shows it to an admin on /settings", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/contact", { waitUntil: "networkidle" });
    const submit = page.getByRole("button", { name: "Request Demo" });
    await submit.click();
    await expect(page.getByText("Full name is required.")).toBeVisible();
    await expect(page.getByText("Email is required.")).toBeVisible();
    await expect(page.getByText("Organization is required.")).toBeVisible();
    await page.getByLabel("Full name").fill("Ingrid Solberg");
    await page.getByLabel("Work email").fill("ingrid@@fjord");
    await page.getByLabel("Organization").fill("Fjordvik Pensjon");
    await submit.click();
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await screenshot(page, "public-contact-errors-desktop");
    const email = `ingrid.${Date.now()}@fjordvik.example`;
    await page.getByLabel("Work email").fill(email);
    await page.getByLabel(/What would you like to see/).fill("Eight wind projects released through an escrow agent.");
    await submit.click();
    await expectToast(page, "Request Received");
    await expect(page.getByText("A product specialist will contact you within one business day")).toBeVisible();

    await signIn(page, DEMO.admin);
    await page.goto("/settings");
    const table = page.getByRole("table", { name: "Inbound requests, newest first" });
    const row = table.getByRole("row").filter({ hasText: email });
    await expect(row).toBeVisible();
    await expect(row).toHaveText(/Demo.*Ingrid Solberg.*Fjordvik Pensjon.*Eight wind projects.*\/contact/);
    await screenshot(page, "settings-inbound-requests-desktop");
    await context.close();
  });

  test("requests verifier-app early access and shows the request-received state", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/verifier-app", { waitUntil: "networkidle" });
    await expect(page.getByRole("link", { name: "Become a verifier" }).first()).toBeVisible();
    await page.getByRole("button", { name: "Request Early Access" }).click();
    await expect(page.getByText("Email is required.")).toBeVisible();
    await page.getByLabel("Work email").fill("field.engineer@example.test");
    await page.getByRole("button", { name: "Request Early Access" }).click();
    await expectToast(page, "Request Received");
    await expect(page.getByText("You're on the list.")).toBeVisible();
    await expect(page.locator("#app-features li")).toHaveCount(6);
    for (const tab of ["Field", "Offline", "Security"]) {
      await page.getByRole("tab", { name: tab }).click();
      await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
    }
    await page.getByText("No signal, no problem").isHidden();
    await expect(page.getByText("As strict as the web platform")).toBeVisible();
    await context.close();
  });

  test("sends a verifier partner application and says it was received", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/become-verifier");
    await page.getByLabel("Full name").fill("Kwame Mensah");
    await page.getByLabel("Email", { exact: true }).fill("kwame.mensah@example.test");
    await page.getByLabel(/Your expertise/).fill("Chartered civil engineer, 12 years on solar sites in Ghana.");
    await page.getByRole("button", { name: "Apply to become a verifier" }).click();
    await expectToast(page, "Thanks for your interest! We'll contact you shortly about becoming a verified partner.");
    await context.close();
  });

  test("offers the two advanced-feature tabs, AI Verification first, and a Request Demo block", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/ai-verification");
    const ai = page.getByRole("tab", { name: "AI Verification" });
    await expect(ai).toHaveAttribute("aria-selected", "true");
    await expect(page.getByText("The checks run on every upload, in every plan.")).toBeVisible();
    await expect(page.getByText("99.2% of fields read right")).toBeVisible();
    await page.getByRole("tab", { name: "Smart Contract Disbursements" }).click();
    await expect(page.getByText("On the roadmap, not built yet")).toBeVisible();
    await screenshot(page, "public-ai-verification-contracts-desktop");
    await page.getByLabel("Work email").fill("cio@example.test");
    await page.getByRole("button", { name: "Request Demo" }).click();
    await expectToast(page, "Request Received");
    await context.close();
  });
});

test.describe("small screens", () => {
  test("opens the bottom drawer with the public links, navigates, and closes with Escape", async () => {
    const { context, page } = await suite.page(PHONE);
    await openLive(page, "/", { waitUntil: "networkidle" });
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    for (const label of ["Home", "Features", "Pricing", "About", "Partners", "Log in", "Request Demo", "Get Started"])
      await expect(drawer.getByRole("link", { name: label, exact: true })).toBeVisible();
    await screenshot(page, "public-drawer-phone", { fullPage: false });
    await drawer.getByRole("link", { name: "Pricing" }).click();
    await page.waitForURL("**/pricing");
    await expect(drawer).not.toBeAttached();
    await expect(
      page.getByRole("heading", { level: 1, name: "Priced per platform, not per dollar released" }),
    ).toBeVisible();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(drawer).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(drawer).not.toBeAttached();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Open menu");
    await context.close();
  });
});

test.describe("settings", () => {
  test("changes the signed-in user's password, refusing a weak one with reasons", async () => {
    const email = `settings.${Date.now()}@example.test`;
    const oldPassword = "harbour violet cinder 31";
    const res = await fetch(`${suite.app.url}/api/auth/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Noor Haddad", email, password: oldPassword }),
    });
    expect(res.status).toBe(201);
    const { context, page } = await suite.page();
    await signIn(page, email, oldPassword);
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Inbound requests" })).toHaveCount(0);
    await page.getByLabel("Current password").fill(oldPassword);
    await page.getByLabel("New password", { exact: true }).fill("password1234");
    await page.getByLabel("Confirm new password").fill("password1234");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Choose a stronger password:")).toBeVisible();
    await expect(page.getByLabel("New password", { exact: true })).toBeFocused();
    const newPassword = "quartz meadow lantern 77";
    await page.getByLabel("New password", { exact: true }).fill(newPassword);
    await page.getByLabel("Confirm new password").fill(newPassword);
    await page.getByRole("button", { name: "Change password" }).click();
    await expectToast(page, "Password changed");
    const signInAgain = await fetch(`${suite.app.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: newPassword }),
    });
    expect(signInAgain.status).toBe(200);
    await context.close();
  });

  test("a wrong current password keeps what was typed and puts the keyboard on that field", async () => {
    for (const [viewport, name] of [
      [DESKTOP, "desktop"],
      [PHONE, "phone"],
    ] as const) {
      const { context, page } = await suite.page(viewport);
      await signIn(page, DEMO.owner);
      await page.goto("/account");
      const current = page.getByLabel("Current password");
      const fresh = "copper orchard kite 52";
      await current.fill("not-my-password-at-all");
      await page.getByLabel("New password", { exact: true }).fill(fresh);
      await page.getByLabel("Confirm new password").fill(fresh);
      await page.getByLabel("Confirm new password").press("Enter");
      await expectToast(page, "Current password is incorrect.");
      await expect(current).toHaveAttribute("aria-invalid", "true");
      // The button was disabled while the request ran: focus goes to the field to correct, not the page's start.
      await expect(current).toBeFocused();
      await expect(page.getByLabel("New password", { exact: true })).toHaveValue(fresh);
      await screenshot(page, `change-password-wrong-current-${name}`, { fullPage: false });
      // An empty form does the same with its first error.
      await current.fill("");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.getByText("Current password is required.")).toBeVisible();
      await expect(current).toBeFocused();
      await context.close();
    }
  });
});

test.describe("certificate check", () => {
  test("an empty /verify submit puts the keyboard on the field that is wrong, its error tied to it", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/verify", { waitUntil: "networkidle" });
    const release = page.getByLabel("Release id");
    const hash = page.getByLabel("Certificate fingerprint (SHA-256)");
    // The form is a lazily loaded part of the page: on a loaded host it can still be adopting its HTML when the shell
    // already is (html[data-hydrated]), and a click before then does nothing, so the click is tried again until the
    // form answers, as a person would click again.
    await expect(async () => {
      await page.getByRole("button", { name: "Check certificate" }).click();
      await expect(release).toBeFocused({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(release).toHaveAttribute("aria-invalid", "true");
    await expect(release).toHaveAccessibleDescription("Enter the release id printed on the certificate.");
    await screenshot(page, "verify-empty-submit-desktop", { fullPage: false });

    // The release id given, the fingerprint missing: the keyboard goes on to the fingerprint.
    await release.fill("7d3c5a4e-2b1f-4c8e-9a6d-0f1e2d3c4b5a");
    await page.keyboard.press("Enter");
    await expect(hash).toBeFocused();
    await expect(hash).toHaveAccessibleDescription("Enter the 64-character fingerprint printed on the certificate.");
    await expect(release).toHaveAttribute("aria-invalid", "false");
    await context.close();
  });
});
