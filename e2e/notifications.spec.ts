import { expect, type Page, test } from "@playwright/test";
import { DEMO, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

const bell = (page: Page) => page.getByRole("link", { name: /^Notifications, \d+ unread$/ });

/** The server's unread count for the page's user, once the badge shows it (the label reads 0 until loaded). */
async function unreadOnceLoaded(page: Page): Promise<number> {
  const { count } = await (await page.request.get("/api/notifications/unread-count")).json();
  await waitForUnread(page, count);
  return count;
}

async function waitForUnread(page: Page, count: number) {
  await expect(page.getByRole("link", { name: `Notifications, ${count} unread` })).toBeVisible({ timeout: 15_000 });
}

test.describe("notifications", () => {
  // Later tests read what the first one did (the owner's new milestone): after a failure the rest are skipped, and a
  // retry runs them all again, on a fresh server.
  test.describe.configure({ mode: "serial" });

  test("raises the bell on one user's open page when another user acts, without a reload", async () => {
    const investor = await suite.page();
    await signIn(investor.page, DEMO.investor);
    await waitForUnread(investor.page, 1); // the demo welcome
    const pendingCard = investor.page.getByTestId("card-pending-verification");
    await expect(pendingCard.getByText("7 milestones pending")).toBeVisible();

    const owner = await suite.page();
    await signIn(owner.page, DEMO.owner);
    const projects = await owner.page.request.get("/api/projects");
    const aire = (await projects.json()).items.find((p: { name: string }) => p.name.startsWith("Aire Valley"));
    let navigations = 0;
    investor.page.on("framenavigated", () => navigations++);
    const created = await owner.page.request.post(`/api/projects/${aire.id}/milestones`, {
      data: {
        title: "Outfall works",
        description: "River outfall structure and the discharge consent.",
        dueDate: new Date(Date.now() + 50 * 86_400_000).toISOString().slice(0, 10),
        capitalAmount: 250000,
      },
    });
    expect(created.status()).toBe(201);

    // Pushed over the event stream: the badge and the open dashboard refresh by themselves.
    await waitForUnread(investor.page, 2);
    await expect(pendingCard.getByText("8 milestones pending")).toBeVisible({ timeout: 15_000 });
    expect(navigations).toBe(0);
    await screenshot(investor.page, "notifications-bell-live-desktop", { fullPage: false });
    await owner.context.close();
    await investor.context.close();
  });

  test("lists notifications, marks one and then all as read", async () => {
    const { context, page } = await suite.page();
    await signIn(page, DEMO.investor);
    // The welcome, and the milestone the owner added in the test above.
    await waitForUnread(page, 2);
    const before = 2;
    await bell(page).click();
    await page.waitForURL("**/notifications");
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    const items = page.getByTestId("notification-item");
    await expect(items.first()).toBeVisible();
    await expect(items).toHaveCount(before);
    const newest = items.first();
    await expect(newest.getByRole("heading")).toContainText("New milestone");
    await expect(newest.getByTestId("notification-category")).toHaveText("milestone");
    await expect(newest.getByText(/ago$/)).toHaveCount(1);
    await expect(newest.getByRole("link", { name: "View" })).toHaveAttribute("href", /^\/milestones\//);
    await screenshot(page, "notifications-unread-desktop");

    await newest.getByRole("button", { name: "Mark as read" }).click();
    await waitForUnread(page, before - 1);
    // The badge and the list are refetched side by side: the count may arrive first.
    await expect.poll(() => newest.getAttribute("data-read")).toBe("true");
    await expect(newest.getByRole("button", { name: "Mark as read" })).toHaveCount(0);

    // From the keyboard: once all is read the button says it can do no more, and the keyboard stays on it.
    const markAll = page.getByRole("button", { name: "Mark all as read" });
    await markAll.focus();
    await page.keyboard.press("Enter");
    await expectToast(page, "All notifications marked as read");
    await waitForUnread(page, 0);
    await expect(markAll).toHaveAttribute("aria-disabled", "true");
    await expect(markAll).toBeFocused();
    await expect(page.getByRole("button", { name: "Mark as read" })).toHaveCount(0);
    await screenshot(page, "notifications-all-read-desktop");
    await context.close();
  });

  test("View opens what the notification tells of, on the tab it concerns, and marks it read", async () => {
    const theo = await suite.page();
    await signIn(theo.page, "theo.park@tranche.demo");
    const { items: projects } = await (await theo.page.request.get("/api/projects?limit=100")).json();
    const aire = projects.find((p: { name: string }) => p.name.startsWith("Aire Valley"));
    const { milestones } = await (await theo.page.request.get(`/api/projects/${aire.id}`)).json();
    const pending = milestones.find((m: { status: string }) => m.status === "pending");
    expect((await theo.page.request.post(`/api/milestones/${pending.id}/start`, { data: {} })).status()).toBe(200);
    await theo.context.close();

    // The investor read everything in the test above: this is their one unread notification.
    const { context, page } = await suite.page();
    await signIn(page, DEMO.investor);
    await waitForUnread(page, 1);
    await page.goto("/notifications");
    const started = page.getByTestId("notification-item").first();
    await expect(started.getByRole("heading")).toContainText("Verification started");
    await started.getByRole("link", { name: "View" }).click();
    await page.waitForURL(`**/milestones/${pending.id}?tab=verification`);
    await expect(page.getByRole("tab", { name: "Verification" })).toHaveAttribute("aria-selected", "true");
    await waitForUnread(page, 0);
    // Another tab is kept in the URL too, so back, reload and a shared link show it.
    await page.getByRole("tab", { name: "Evidence" }).click();
    await page.reload();
    await expect(page.getByRole("tab", { name: "Evidence" })).toHaveAttribute("aria-selected", "true");
    await context.close();
  });

  test("after Mark as read the keyboard stays in the list: on the item's View link, or under Unread on the next item", async () => {
    // Three new milestones on the investor's Aire Valley project: three unread notifications, each with a View link.
    const owner = await suite.page();
    await signIn(owner.page, DEMO.owner);
    const { items: projects } = await (await owner.page.request.get("/api/projects")).json();
    const aire = projects.find((p: { name: string }) => p.name.startsWith("Aire Valley"));
    for (const title of ["Inlet screens", "Sludge press", "Control room"]) {
      const created = await owner.page.request.post(`/api/projects/${aire.id}/milestones`, {
        data: {
          title,
          description: `${title} installed and commissioned.`,
          dueDate: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10),
          capitalAmount: 10000,
        },
      });
      expect(created.status()).toBe(201);
    }
    await owner.context.close();

    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.investor);
    await waitForUnread(page, 3);
    await page.goto("/notifications");
    const items = page.getByTestId("notification-item");
    await expect(items.and(page.locator("[data-read=false]"))).toHaveCount(3);
    // The first unread item, by its place in the list (titles repeat): it keeps its place once read.
    const at = await items.evaluateAll((all) => all.findIndex((el) => el.getAttribute("data-read") === "false"));
    const item = items.nth(at);
    await item.getByRole("button", { name: "Mark as read" }).focus();
    await page.keyboard.press("Enter");
    await expect(item).toHaveAttribute("data-read", "true");
    await expect(item.getByRole("link", { name: "View" })).toBeFocused();
    await screenshot(page, "notifications-mark-read-focus-phone", { fullPage: false });

    // Under Unread the item leaves the list: the one that takes its place has the focus, ready to be marked too.
    await page.getByRole("tab", { name: "Unread" }).click();
    await expect(items.first()).toHaveAttribute("data-read", "false");
    const before = await items.count();
    await items.first().getByRole("button", { name: "Mark as read" }).focus();
    await page.keyboard.press("Enter");
    await expect(items).toHaveCount(before - 1);
    await expect(items.first().getByRole("button", { name: "Mark as read" })).toBeFocused();
    await context.close();
  });

  test("fits a phone: the list, the chips and the actions", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.verifier);
    await bell(page).click();
    await page.waitForURL("**/notifications");
    await expect(page.getByTestId("notification-item").first()).toBeVisible();
    await screenshot(page, "notifications-phone");
    await page.getByRole("button", { name: "Mark all as read" }).click();
    await expectToast(page, "All notifications marked as read");
    await waitForUnread(page, 0);
    await context.close();
  });

  test("admin changes a role on /users and the user's open page hears of it at once", async () => {
    const sofia = await suite.page();
    await signIn(sofia.page, "sofia.reyes@tranche.demo");
    const sofiaBefore = await unreadOnceLoaded(sofia.page);

    const admin = await suite.page();
    await signIn(admin.page, DEMO.admin);
    await admin.page.goto("/users");
    await expect(admin.page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
    const own = admin.page.getByLabel("Role for Avery Chen");
    await expect(own).toBeDisabled();
    // Theo is verifying a milestone: he keeps his role until it is decided, and the admin is told which.
    await admin.page.getByLabel("Role for Theo Park").selectOption("investor");
    await admin.page.getByRole("alertdialog").getByRole("button", { name: "Change role" }).click();
    await expectToast(admin.page, 'Theo Park is verifying "Detailed engineering design"');
    await expect(admin.page.getByLabel("Role for Theo Park")).toHaveValue("verifier");

    await admin.page.getByLabel("Role for Sofia Reyes").selectOption("investor");
    await admin.page.getByRole("alertdialog").getByRole("button", { name: "Change role" }).click();
    await expectToast(admin.page, "Sofia Reyes is now Investor.");
    await screenshot(admin.page, "users-admin-desktop");

    await waitForUnread(sofia.page, sofiaBefore + 1);
    await admin.context.close();
    await sofia.context.close();
  });
});
