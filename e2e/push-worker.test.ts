// The push half of the service worker (apps/web/src/sw/push.ts) in a real Chromium: the module is bundled as it
// will be in the app's worker, registered on the app's origin, and a push is delivered to it through CDP
// (ServiceWorker.deliverPushMessage), as a push service would. The notification it shows is read back. With a worker
// registered, Account → Security offers "Enable push on this device".
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { DEMO, DESKTOP, PHONE, screenshot, signIn, useBrowserSuite } from "./support/app";

const suite = useBrowserSuite();
const root = fileURLToPath(new URL("..", import.meta.url));
const WORKER_PATH = "/sw-push-under-test.js";

/** The module wired up as the app's service worker does it. */
async function workerScript(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { handlePush, handleNotificationClick } from "./apps/web/src/sw/push.ts";
        self.addEventListener("push", handlePush);
        self.addEventListener("notificationclick", handleNotificationClick);`,
      resolveDir: root,
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "iife",
    logLevel: "silent",
  });
  return result.outputFiles[0].text;
}

describe("push in the service worker", () => {
  it("shows the pushed assignment as a notification that opens the field view, and offers push in Security", async () => {
    const script = await workerScript();
    const { context, page } = await suite.page(DESKTOP);
    await context.grantPermissions(["notifications"], { origin: suite.app.url });
    await context.route(`**${WORKER_PATH}`, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: script }),
    );
    await signIn(page, DEMO.verifier);
    await page.evaluate(async (url) => {
      await navigator.serviceWorker.register(url, { scope: "/" });
      await navigator.serviceWorker.ready;
    }, WORKER_PATH);

    await page.goto("/account#security");
    await page.getByRole("button", { name: "Enable push on this device" }).waitFor();
    await page.getByText("Off for this device").waitFor();
    await screenshot(page, "push-account-desktop");
    const phone = await suite.page(PHONE);
    await phone.context.addCookies(await context.cookies());
    await phone.context.route(`**${WORKER_PATH}`, (route) =>
      route.fulfill({ status: 200, contentType: "text/javascript", body: script }),
    );
    await phone.page.goto("/account");
    await phone.page.evaluate(async (url) => {
      await navigator.serviceWorker.register(url, { scope: "/" });
      await navigator.serviceWorker.ready;
    }, WORKER_PATH);
    await phone.page.reload();
    await phone.page.getByRole("button", { name: "Enable push on this device" }).waitFor();
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
    const milestoneId = "0b9e4c2a-5d7f-4e1b-9a3c-6f8d2e4b7a10";
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: suite.app.url,
      registrationId: await registrationId,
      data: JSON.stringify({
        title: "Verification overdue",
        body: '"Battery storage installation" (Mojave Solar Farm) has been in verification for more than 3 days.',
        url: `/field/milestones/${milestoneId}`,
        tag: `milestone-${milestoneId}`,
        urgency: "high",
        notificationId: "n-1",
        milestoneId,
      }),
    });
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
    await expect.poll(shown, { timeout: 10_000 }).toEqual([
      {
        title: "Verification overdue",
        body: '"Battery storage installation" (Mojave Solar Farm) has been in verification for more than 3 days.',
        tag: `milestone-${milestoneId}`,
        requireInteraction: true,
        data: { url: `/field/milestones/${milestoneId}`, notificationId: "n-1" },
      },
    ]);

    // A push that is not ours, or points off-site, still shows something and opens only Tranche's field view.
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: suite.app.url,
      registrationId: await registrationId,
      data: JSON.stringify({ title: "Phish", body: "Click me", url: "https://evil.example/", tag: "x" }),
    });
    await expect
      .poll(async () => (await shown()).find((n) => n.title === "Phish")?.data, { timeout: 10_000 })
      .toEqual({ url: "/field", notificationId: "" });
    await context.close();
  });
});
