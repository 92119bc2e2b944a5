// The push half of the app's service worker (apps/web/src/sw/push.ts, wired up by src/sw/service-worker.ts) in a
// real Chromium: the signed-in app registers its worker, and a push is delivered to it through CDP
// (ServiceWorker.deliverPushMessage), as a push service would. The notification it shows is read back. With the
// worker registered, Account → Security offers "Enable push on this device".
import { expect, type Page, test } from "@playwright/test";
import { DEMO, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

const workerReady = (page: Page) =>
  page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

test.describe("push in the service worker", () => {
  test("shows a pushed assignment as a notification that opens the field view; Security offers push", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await context.grantPermissions(["notifications"], { origin: suite.app.url });
    await signIn(page, DEMO.verifier);
    await workerReady(page);

    await page.goto("/account#security");
    await expect(page.getByRole("button", { name: "Enable push on this device" })).toBeVisible();
    await expect(page.getByText("Off for this device")).toBeVisible();
    await screenshot(page, "push-account-desktop");
    const phone = await suite.page(PHONE);
    await phone.context.addCookies(await context.cookies());
    await phone.page.goto("/account");
    await workerReady(phone.page);
    await phone.page.reload();
    await expect(phone.page.getByRole("button", { name: "Enable push on this device" })).toBeVisible();
    await screenshot(phone.page, "push-account-phone");
    await phone.context.close();

    // Deliver a push as the server's sender writes it.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(suite.app.url));
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    // Chromium keeps its notification list in step with what is on screen: a getNotifications() that runs while a
    // notification is still being displayed drops it from the list for good. So the list is read only once the
    // worker has had time to show it, as a person would look at it, not while the push is being handled.
    const deliver = async (data: unknown) => {
      await cdp.send("ServiceWorker.deliverPushMessage", {
        origin: suite.app.url,
        registrationId: await registrationId,
        data: JSON.stringify(data),
      });
      await page.waitForTimeout(1_000);
    };
    const shown = async () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          requireInteraction: n.requireInteraction,
          data: n.data,
        })),
      );

    const milestoneId = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";
    const body = '"Battery storage installation" (Mojave Solar Farm) has been in verification for more than 3 days.';
    await deliver({
      title: "Verification overdue",
      body,
      url: `/field/milestones/${milestoneId}`,
      tag: `milestone-${milestoneId}`,
      urgency: "high",
      notificationId: "n-1",
      milestoneId,
    });
    await expect.poll(shown, { timeout: 10_000 }).toEqual([
      {
        title: "Verification overdue",
        body,
        tag: `milestone-${milestoneId}`,
        requireInteraction: true,
        data: { url: `/field/milestones/${milestoneId}`, notificationId: "n-1" },
      },
    ]);

    // A push that points off-site still shows, but opens only Tranche's field view.
    await deliver({ title: "Elsewhere", body: "Open me", url: "https://elsewhere.example/", tag: "x" });
    await expect
      .poll(async () => (await shown()).find((n) => n.title === "Elsewhere")?.data, { timeout: 10_000 })
      .toEqual({ url: "/field", notificationId: "" });
    // So does one whose path a browser reads as another host ("/\\host" is "//host").
    await deliver({ title: "Sideways", body: "Open me", url: "/\\elsewhere.example/", tag: "y" });
    await expect
      .poll(async () => (await shown()).find((n) => n.title === "Sideways")?.data, { timeout: 10_000 })
      .toEqual({ url: "/field", notificationId: "" });
    await context.close();
  });
});
