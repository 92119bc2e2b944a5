// The header search in a real browser: live suggestions as you type, arrow keys and Enter to open one, Enter with
// none highlighted for the full project results; admins also find people.
import { describe, expect, it } from "vitest";
import { DEMO, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/vitest-suite";

const suite = useBrowserSuite();

describe("header search", () => {
  it("suggests milestones and projects as an investor types, and opens one from the keyboard", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    const box = page.getByRole("combobox", { name: "Search" });
    await box.fill("panel");
    const option = page.getByRole("option", { name: /Panel and inverter delivery/ });
    await option.waitFor();
    await screenshot(page, "header-search-suggestions", { fullPage: false });
    await box.press("ArrowDown");
    await expect(box.getAttribute("aria-activedescendant")).resolves.toBe(await option.getAttribute("id"));
    await box.press("Enter");
    await page.waitForURL(/\/milestones\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { name: "Panel and inverter delivery" }).first().waitFor();

    // Enter with nothing highlighted: the full results.
    await box.fill("Mojave");
    await page.getByRole("option", { name: /Mojave Solar Farm Phase II/ }).waitFor();
    await box.press("Enter");
    await page.waitForURL(/\/projects\?q=Mojave$/);
    await context.close();
  });

  it("finds people for admins and brings their row into view on /users", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.admin);
    const box = page.getByRole("combobox", { name: "Search" });
    await box.fill("Lindqvist");
    const person = page.getByRole("option", { name: /Vera Lindqvist/ });
    await person.waitFor();
    await expect(person.textContent()).resolves.toContain("People");
    await person.click();
    await page.waitForURL(/\/users#user-/);
    const row = page.locator('tr[aria-current="true"]');
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain("Vera Lindqvist");
    await context.close();
  });

  it("is in the menu on a phone, where the header has no room for it", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.investor);
    const header = page.locator("header").getByRole("combobox", { name: "Search" });
    expect(await header.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    const box = menu.getByRole("combobox", { name: "Search" });
    expect(await box.isVisible()).toBe(true);
    await box.fill("panel");
    const option = menu.getByRole("option", { name: /Panel and inverter delivery/ });
    await option.waitFor();
    await screenshot(page, "header-search-phone-menu", { fullPage: false });
    await option.click();
    await page.waitForURL(/\/milestones\/[0-9a-f-]{36}$/);
    await page.getByRole("heading", { name: "Panel and inverter delivery" }).first().waitFor();
    await menu.waitFor({ state: "detached" });
    await context.close();
  });
});
