import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, DESKTOP, expectToast, openLive, PHONE, screenshot, signIn, useBrowserSuite } from "./support/app";
import { PUBLIC_PAGES as PAGES } from "./support/public-pages";

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

describe("public pages", () => {
  let desktop: Page;
  let phone: Page;
  beforeAll(async () => {
    desktop = (await suite.page(DESKTOP)).page;
    phone = (await suite.page(PHONE)).page;
  });
  afterAll(async () => {
    await desktop?.context().close();
    await phone?.context().close();
  });

  for (const [path, heading] of PAGES) {
    it(`${path} renders its one h1 with landmarks and passes axe at desktop and phone width`, async () => {
      const failures: string[] = [];
      for (const [viewport, page] of [
        ["desktop", desktop],
        ["phone", phone],
      ] as const) {
        await page.goto(path);
        await page.getByRole("heading", { level: 1, name: heading }).waitFor();
        expect(await page.locator("h1").count(), `${path}: one h1`).toBe(1);
        for (const role of ["banner", "main", "contentinfo"] as const) {
          expect(await page.getByRole(role).count(), `${path}: one ${role} landmark`).toBe(1);
        }
        for (const violation of await seriousViolations(page)) failures.push(`[${viewport}] ${violation}`);
        await screenshot(page, `public-${shotName(path)}-${viewport}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it("shows a visible focus ring on keyboard focus", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/", { waitUntil: "networkidle" });
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe("Skip to content");
    await page.keyboard.press("Tab");
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    expect(outline).toBe("solid");
    await context.close();
  });

  it("opens the Products menu with its two products and follows a link", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/", { waitUntil: "networkidle" });
    const products = page.getByRole("button", { name: "Products" });
    await products.click();
    await expect(products.getAttribute("aria-expanded")).resolves.toBe("true");
    await page.getByRole("link", { name: /Verification Platform/ }).waitFor();
    await page.keyboard.press("Escape");
    await expect(products.getAttribute("aria-expanded")).resolves.toBe("false");
    await products.click();
    await page.getByRole("link", { name: /Governance Infrastructure/ }).click();
    await page.waitForURL("**/institutional-partners");
    await page.getByRole("heading", { level: 1, name: "Oversight that limited partners can act on" }).waitFor();
    await expect(page.getByRole("contentinfo").textContent()).resolves.toMatch(
      /© 2025 Tranche.*hello@tranche\.capital|hello@tranche\.capital.*© 2025 Tranche/s,
    );
    await context.close();
  });
});

describe("landing page", () => {
  it("recomputes the impact calculator from the sliders and the profile", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/", { waitUntil: "networkidle" });
    const value = page.getByTestId("impact-value");
    await expect(value.textContent()).resolves.toBe("$900.0M");
    const capital = page.getByLabel("Capital under management");
    await expect(capital.inputValue()).resolves.toBe("500");
    // Ten steps of $50M: 1000 × 12 × 0.15 = 1,800.0
    await capital.focus();
    for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
    await expect(value.textContent()).resolves.toBe("$1,800.0M");
    // Investments to the maximum: 1000 × 100 × 0.15 = 15,000.0
    await page.getByLabel("Number of investments").focus();
    await page.keyboard.press("End");
    await expect(value.textContent()).resolves.toBe("$15,000.0M");
    // Growth profile, factor 0.8: 12,000.0; conservative, 1.2: 18,000.0
    await page.locator("label", { hasText: "Growth" }).click();
    await expect(value.textContent()).resolves.toBe("$12,000.0M");
    await page.locator("label", { hasText: "Conservative" }).click();
    await expect(page.getByRole("radio", { name: /Conservative/ }).isChecked()).resolves.toBe(true);
    await expect(value.textContent()).resolves.toBe("$18,000.0M");
    // The 40/35/25 split of 18,000.0
    const section = page.locator("#impact");
    for (const part of ["$7,200.0M", "$6,300.0M", "$4,500.0M"]) await section.getByText(part).waitFor();
    await context.close();
  });

  it("keeps at most one FAQ answer open", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/#faq", { waitUntil: "networkidle" });
    await page.getByRole("heading", { name: "Frequently asked questions" }).waitFor();
    const faq = page.locator("#faq");
    const questions = faq.getByRole("button");
    await expect(questions.count()).resolves.toBe(6);
    const expanded = () => faq.locator('button[aria-expanded="true"]').count();
    await expect(expanded()).resolves.toBe(1);
    await questions.nth(2).click();
    await expect(expanded()).resolves.toBe(1);
    await expect(questions.nth(2).getAttribute("aria-expanded")).resolves.toBe("true");
    await expect(questions.nth(0).getAttribute("aria-expanded")).resolves.toBe("false");
    await faq.getByText(/The verifier must give a reason/).waitFor();
    await questions.nth(4).click();
    await expect(expanded()).resolves.toBe(1);
    await expect(faq.getByText(/The verifier must give a reason/).isVisible()).resolves.toBe(false);
    await questions.nth(4).click();
    await expect(expanded()).resolves.toBe(0);
    await context.close();
  });

  it("loads without layout shift from fonts or late content", async () => {
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
      await page.getByTestId("impact-value").waitFor();
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(500);
      const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
      expect(cls, `cumulative layout shift at ${viewport.width}px`).toBeLessThan(0.05);
      await context.close();
    }
  });

  it("lists three testimonials and six feature cards", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/", { waitUntil: "networkidle" });
    await page.getByRole("heading", { name: "Trusted by allocators and sponsors" }).waitFor();
    await expect(page.locator("#testimonials figure").count()).resolves.toBe(3);
    await expect(page.locator("#features li").count()).resolves.toBe(6);
    await context.close();
  });
});

describe("forms that reach us", () => {
  it("validates the Request Demo form inline, stores the request, and shows it to an admin on /settings", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/contact", { waitUntil: "networkidle" });
    const submit = page.getByRole("button", { name: "Request Demo" });
    await submit.click();
    await page.getByText("Full name is required.").waitFor();
    await page.getByText("Email is required.").waitFor();
    await page.getByText("Organization is required.").waitFor();
    await page.getByLabel("Full name").fill("Ingrid Solberg");
    await page.getByLabel("Work email").fill("ingrid@@fjord");
    await page.getByLabel("Organization").fill("Fjordvik Pensjon");
    await submit.click();
    await page.getByText("Enter a valid email address.").waitFor();
    await screenshot(page, "public-contact-errors-desktop");
    const email = `ingrid.${Date.now()}@fjordvik.example`;
    await page.getByLabel("Work email").fill(email);
    await page.getByLabel(/What would you like to see/).fill("Eight wind projects released through an escrow agent.");
    await submit.click();
    await expectToast(page, "Request Received");
    await page.getByText("A product specialist will contact you within one business day").waitFor();

    await signIn(page, DEMO.admin);
    await page.goto("/settings");
    const table = page.getByRole("table", { name: "Inbound requests, newest first" });
    const row = table.getByRole("row").filter({ hasText: email });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(
      /Demo.*Ingrid Solberg.*Fjordvik Pensjon.*Eight wind projects.*\/contact/,
    );
    await screenshot(page, "settings-inbound-requests-desktop");
    await context.close();
  });

  it("requests verifier-app early access and shows the request-received state", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/verifier-app", { waitUntil: "networkidle" });
    await page.getByRole("link", { name: "Become a verifier" }).first().waitFor();
    await page.getByRole("button", { name: "Request Early Access" }).click();
    await page.getByText("Email is required.").waitFor();
    await page.getByLabel("Work email").fill("field.engineer@example.test");
    await page.getByRole("button", { name: "Request Early Access" }).click();
    await expectToast(page, "Request Received");
    await page.getByText("You're on the list.").waitFor();
    await expect(page.locator("#app-features li").count()).resolves.toBe(6);
    for (const tab of ["Field", "Offline", "Security"]) {
      await page.getByRole("tab", { name: tab }).click();
      await expect(page.getByRole("tab", { name: tab }).getAttribute("aria-selected")).resolves.toBe("true");
    }
    await page.getByText("No signal, no problem").isHidden();
    await page.getByText("As strict as the web platform").waitFor();
    await context.close();
  });

  it("sends a verifier partner application and says it was received", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/become-verifier");
    await page.getByLabel("Full name").fill("Kwame Mensah");
    await page.getByLabel("Email", { exact: true }).fill("kwame.mensah@example.test");
    await page.getByLabel(/Your expertise/).fill("Chartered civil engineer, 12 years on solar sites in Ghana.");
    await page.getByRole("button", { name: "Apply to become a verifier" }).click();
    await expectToast(page, "Thanks for your interest! We'll contact you shortly about becoming a verified partner.");
    await context.close();
  });

  it("offers the two advanced-feature tabs, AI Verification first, and a Request Demo block", async () => {
    const { context, page } = await suite.page();
    await openLive(page, "/ai-verification");
    const ai = page.getByRole("tab", { name: "AI Verification" });
    await expect(ai.getAttribute("aria-selected")).resolves.toBe("true");
    await page.getByText("The checks run on every upload, in every plan.").waitFor();
    await page.getByText("99.2% of fields read right").waitFor();
    await page.getByRole("tab", { name: "Smart Contract Disbursements" }).click();
    await page.getByText("On the roadmap, not built yet").waitFor();
    await screenshot(page, "public-ai-verification-contracts-desktop");
    await page.getByLabel("Work email").fill("cio@example.test");
    await page.getByRole("button", { name: "Request Demo" }).click();
    await expectToast(page, "Request Received");
    await context.close();
  });
});

describe("small screens", () => {
  it("opens the bottom drawer with the public links, navigates, and closes with Escape", async () => {
    const { context, page } = await suite.page(PHONE);
    await openLive(page, "/", { waitUntil: "networkidle" });
    await expect(page.getByRole("navigation", { name: "Main" }).isVisible()).resolves.toBe(false);
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    for (const label of ["Home", "Features", "Pricing", "About", "Partners", "Log in", "Request Demo", "Get Started"])
      await drawer.getByRole("link", { name: label, exact: true }).waitFor();
    await screenshot(page, "public-drawer-phone", { fullPage: false });
    await drawer.getByRole("link", { name: "Pricing" }).click();
    await page.waitForURL("**/pricing");
    await drawer.waitFor({ state: "detached" });
    await page.getByRole("heading", { level: 1, name: "Priced per platform, not per dollar released" }).waitFor();
    await page.getByRole("button", { name: "Open menu" }).click();
    await drawer.waitFor();
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    await expect(page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).resolves.toBe("Open menu");
    await context.close();
  });
});

describe("settings", () => {
  it("changes the signed-in user's password, refusing a weak one with reasons", async () => {
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
    await page.getByRole("heading", { name: "Change password" }).waitFor();
    await expect(page.getByRole("heading", { name: "Inbound requests" }).count()).resolves.toBe(0);
    await page.getByLabel("Current password").fill(oldPassword);
    await page.getByLabel("New password", { exact: true }).fill("password1234");
    await page.getByLabel("Confirm new password").fill("password1234");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Choose a stronger password:").waitFor();
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
});
