// Issue 16 "Uploads" and "Looks": a batch uploads its valid files and names the refused ones; a file already on
// the milestone (same SHA-256) is named before it is sent again; toasts cover no header control and repeats
// collapse; wide public tables say on phones that they scroll.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, DESKTOP, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite({ MAX_UPLOAD_MB: "1" });

async function lisbonMilestone(page: Page): Promise<string> {
  const list = (
    (await (await page.request.get("/api/milestones?limit=100")).json()) as { items: { id: string; title: string }[] }
  ).items;
  const found = list.find((m) => m.title === "Cooling design approved");
  if (!found) throw new Error("no Lisbon milestone");
  return found.id;
}

const overlaps = (a: { x: number; y: number; width: number; height: number } | null, b: typeof a) =>
  Boolean(a && b && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height);

test.describe("uploads", () => {
  test("uploads the valid files of a batch and names the refused ones; warns before a duplicate", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.owner);
    await page.goto(`/milestones/${await lisbonMilestone(page)}`);
    await page.getByRole("tab", { name: "Evidence" }).click();
    await page.getByLabel("Upload Evidence").setInputFiles([
      { name: "cooling-design.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 cooling loop design") },
      { name: "blank.txt", mimeType: "text/plain", buffer: Buffer.alloc(0) },
      { name: "site-survey.mov", mimeType: "video/quicktime", buffer: Buffer.alloc(1024 * 1024 + 10, 7) },
    ]);
    await expectToast(page, "1 file(s) uploaded successfully");
    await expectToast(page, "2 files not uploaded");
    const refusal = page.locator("[data-sonner-toast]").filter({ hasText: "2 files not uploaded" });
    // One quote style, the server's (straight), whether the browser or the server refused the file.
    await expect(refusal).toContainText('"blank.txt": it is empty');
    await expect(refusal).toContainText('"site-survey.mov" is larger than the 1 MB limit per file.');
    await expect(refusal).not.toContainText('"site-survey.mov":');
    await expect(refusal).not.toContainText(/[“”]/);
    const files = page.getByRole("list", { name: "Evidence files" });
    await expect(files.getByText("cooling-design.pdf")).toBeVisible();
    await expect(files.getByRole("listitem")).toHaveCount(1);
    await screenshot(page, "upload-partial-desktop", { fullPage: false });

    // The same content under another name: named before it is sent; Cancel sends nothing.
    await page
      .getByLabel("Upload Evidence")
      .setInputFiles([
        { name: "design-copy.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 cooling loop design") },
      ]);
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText("Already on this milestone")).toBeVisible();
    await expect(confirm).toContainText('"design-copy.pdf (as cooling-design.pdf)"');
    await screenshot(page, "upload-duplicate-desktop", { fullPage: false });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).not.toBeAttached();
    await expect(files.getByRole("listitem")).toHaveCount(1);
    await context.close();
  });
});

test.describe("looks", () => {
  test("repeated toasts collapse into one, placed clear of the header's controls", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await page.goto("/login");
    await page.getByLabel("Email").fill(DEMO.owner);
    await page.getByLabel("Password").fill("not the password at all");
    for (let i = 0; i < 5; i++) {
      await page.getByRole("button", { name: "Sign In" }).click();
      await expectToast(page, "Error signing in");
    }
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(1);
    await context.close();

    for (const viewport of [DESKTOP, PHONE]) {
      const signedIn = await suite.page(viewport);
      await signIn(signedIn.page, DEMO.owner);
      const toast = signedIn.page.locator("[data-sonner-toast]").first();
      await expect(toast).toBeVisible();
      const header = await signedIn.page.locator("header").first().boundingBox();
      expect(overlaps(await toast.boundingBox(), header)).toBe(false);
      await signedIn.context.close();
    }

    // On a phone the menu opens from the bottom: the sign-in toast covers none of its links and buttons either
    // (the admin's menu is the longest).
    const phone = await suite.page(PHONE);
    await signIn(phone.page, DEMO.admin);
    const toast = phone.page.locator("[data-sonner-toast]").filter({ hasText: "Successfully signed in!" });
    await expect(toast).toBeVisible();
    await phone.page.getByRole("button", { name: "Open menu" }).click();
    const menu = phone.page.getByRole("dialog", { name: "Menu" });
    await expect(menu.getByRole("button", { name: "Log out" })).toBeVisible();
    await expect(toast).toBeVisible();
    const placed = await toast.boundingBox();
    for (const control of await menu.locator("a, button, input").all()) {
      const name = (await control.getAttribute("aria-label")) ?? (await control.textContent());
      expect(overlaps(placed, await control.boundingBox()), `the toast covers “${name}”`).toBe(false);
    }
    await screenshot(phone.page, "toast-with-menu-phone", { fullPage: false });
    await phone.context.close();
  });

  test("wide public tables show a scroll cue on phones, and none where they fit", async () => {
    for (const [path, name] of [
      ["/", "home"],
      ["/pricing", "pricing"],
    ]) {
      const phone = await suite.page(PHONE);
      await phone.page.goto(path);
      const region = phone.page.getByRole("region", { name: name === "home" ? "Comparison" : "Plan comparison" });
      await region.scrollIntoViewIfNeeded();
      await expect(phone.page.locator("[data-scroll-cue]").first()).toBeVisible();
      await expect(phone.page.getByText("Scroll sideways to see every column →").first()).toBeVisible();
      await screenshot(phone.page, `scroll-cue-${name}-phone`, { fullPage: false });
      // Scrolled to the end, the cue goes.
      await region.evaluate((el) => {
        el.scrollLeft = el.scrollWidth;
      });
      await expect(phone.page.locator("[data-scroll-cue]").first()).not.toBeAttached();
      await phone.context.close();

      const desktop = await suite.page(DESKTOP);
      await desktop.page.goto(path);
      await expect(
        desktop.page.getByRole("region", { name: name === "home" ? "Comparison" : "Plan comparison" }),
      ).toBeVisible();
      await expect(desktop.page.locator("[data-scroll-cue]")).toHaveCount(0);
      await desktop.context.close();
    }
  });
});
