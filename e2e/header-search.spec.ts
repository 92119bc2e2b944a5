// The header search in a real browser: live suggestions as you type, arrow keys and Enter to open one, Enter with
// none highlighted for the full results (projects, or milestones when only milestones match); admins also find
// people.
import { expect, test } from "@playwright/test";
import { DEMO, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("header search", () => {
  test("suggests milestones and projects as an investor types, and opens one from the keyboard", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    const box = page.getByRole("combobox", { name: "Search" });
    await box.fill("panel");
    const option = page.getByRole("option", { name: /Panel and inverter delivery/ });
    await expect(option).toBeVisible();
    await screenshot(page, "header-search-suggestions", { fullPage: false });
    await box.press("ArrowDown");
    await expect(box).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id")) ?? "");
    await box.press("Enter");
    await page.waitForURL(/\/milestones\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Panel and inverter delivery" }).first()).toBeVisible();

    // Enter with nothing highlighted: the full results.
    await box.fill("Mojave");
    await expect(page.getByRole("option", { name: /^Mojave Solar Farm Phase II/ })).toBeVisible();
    await box.press("Enter");
    await page.waitForURL(/\/projects\?q=Mojave$/);

    // Only milestones match "panel": Enter lists the matching milestones, not an empty project list.
    await box.fill("panel");
    await expect(page.getByText("Press Enter for all matching milestones.")).toBeVisible();
    await box.press("Enter");
    await page.waitForURL(/\/milestones\?q=panel$/);
    await expect(page.getByRole("link", { name: /Panel and inverter delivery/ }).first()).toBeVisible();

    // Enter at once, before the new term's suggestions are in: judged by what was typed, not by the last term's
    // results still on screen (only milestones matched "panel"; a project matches "Mojave").
    await box.fill("Mojave");
    await box.press("Enter");
    await page.waitForURL(/\/projects\?q=Mojave$/);
    await context.close();
  });

  test("finds people for admins and brings their row into view on /users", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.admin);
    const box = page.getByRole("combobox", { name: "Search" });
    await box.fill("Lindqvist");
    const person = page.getByRole("option", { name: /Vera Lindqvist/ });
    await expect(person).toBeVisible();
    await expect(person).toContainText("People");
    await person.click();
    await page.waitForURL(/\/users#user-/);
    const row = page.locator('tr[aria-current="true"]');
    await expect(row).toBeVisible();
    await expect(row).toContainText("Vera Lindqvist");
    await context.close();
  });

  test("is in the menu on a phone, where the header has no room for it", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.investor);
    const header = page.locator("header").getByRole("combobox", { name: "Search" });
    await expect(header).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    const box = menu.getByRole("combobox", { name: "Search" });
    await expect(box).toBeVisible();
    await box.fill("panel");
    const option = menu.getByRole("option", { name: /Panel and inverter delivery/ });
    await expect(option).toBeVisible();
    await screenshot(page, "header-search-phone-menu", { fullPage: false });
    await option.click();
    await page.waitForURL(/\/milestones\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Panel and inverter delivery" }).first()).toBeVisible();
    await expect(menu).not.toBeAttached();
    await context.close();
  });

  test("Escape closes the suggestions first, keeping the text and, on a phone, the menu", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    const box = page.getByRole("combobox", { name: "Search" });
    await box.fill("panel");
    await expect(page.getByRole("option", { name: /Panel and inverter delivery/ })).toBeVisible();
    await box.press("Escape");
    await expect(page.getByRole("listbox", { name: "Suggestions" })).toBeHidden();
    await expect(box).toHaveValue("panel");
    await expect(box).toBeFocused();
    await context.close();

    const phone = await suite.page(PHONE);
    await signIn(phone.page, DEMO.investor);
    await phone.page.getByRole("button", { name: "Open menu" }).click();
    const menu = phone.page.getByRole("dialog", { name: "Menu" });
    const field = menu.getByRole("combobox", { name: "Search" });
    await field.fill("panel");
    await expect(menu.getByRole("option", { name: /Panel and inverter delivery/ })).toBeVisible();
    await field.press("Escape");
    await expect(menu.getByRole("listbox", { name: "Suggestions" })).toBeHidden();
    await expect(menu).toBeVisible();
    await expect(field).toHaveValue("panel");
    await screenshot(phone.page, "header-search-phone-escape", { fullPage: false });
    // The second Escape, with nothing left to close in the field, closes the menu.
    await field.press("Escape");
    await expect(menu).not.toBeAttached();
    await phone.context.close();
  });
});
