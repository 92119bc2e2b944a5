import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { DEMO, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

// Test receivers listen on 127.0.0.1, which only WEBHOOK_ALLOW_PRIVATE lets the server reach.
const suite = useBrowserSuite({ WEBHOOK_ALLOW_PRIVATE: "true" });

interface Received {
  headers: Record<string, string>;
  body: string;
}
const received: Received[] = [];
let receiver: http.Server;
let receiverUrl = "";

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ received: true }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/custodian/webhooks`;
});
test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

test.describe("webhooks in settings", () => {
  test("an admin adds an endpoint, sends a test event to a receiver and sees it in the delivery log", async () => {
    const { context, page } = await suite.page({ width: 1280, height: 900 });
    await signIn(page, DEMO.admin);
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Integrations" })).toBeVisible();
    await page.getByRole("button", { name: "Add endpoint" }).click();

    const dialog = page.getByRole("dialog", { name: "Add webhook endpoint" });
    await dialog.getByLabel("Endpoint URL").fill(receiverUrl);
    await dialog.getByLabel("Description (optional)").fill("Escrow agent (test)");
    await dialog.getByRole("checkbox", { name: /Release settled/ }).check();
    await dialog.getByRole("checkbox", { name: /Project created/ }).check();
    await dialog.getByRole("button", { name: "Create endpoint" }).click();

    const shown = page.getByRole("dialog", { name: "Endpoint created" });
    const secret = await shown.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await screenshot(page, "webhooks-secret-desktop", { fullPage: false });
    await shown.getByRole("button", { name: "Done" }).click();

    const item = page.getByRole("listitem", { name: receiverUrl });
    await expect(item.getByText("Escrow agent (test)")).toBeVisible();
    await item.getByRole("button", { name: "Send test event" }).click();
    await expectToast(page, "Test event queued");

    // The receiver checks the signature exactly as a custodian would.
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    const event = new Webhook(secret).verify(received[0].body, received[0].headers) as { type: string };
    expect(event.type).toBe("webhook.test");

    // The log (opened by the test send) shows the delivery without a reload.
    const row = item.getByTestId("webhook-delivery").first();
    await expect(row.getByText("Delivered")).toBeVisible({ timeout: 15_000 });
    await expect(row.getByText("webhook.test", { exact: true })).toBeVisible();
    await expect(row.getByText("200", { exact: true })).toBeVisible();
    await expect(row.locator("summary", { hasText: '{"received":true}' })).toBeVisible();
    await screenshot(page, "webhooks-log-desktop");
    await row.locator("summary").click();
    await expect(row.getByText(/"type": "webhook.test"/)).toBeVisible();
    await screenshot(page, "webhooks-log-details-desktop");

    // Replay sends the same event again, with the same webhook-id.
    await row.getByRole("button", { name: "Replay" }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(2);
    expect(received[1].headers["webhook-id"]).toBe(received[0].headers["webhook-id"]);
    await context.close();
  });

  test("fits a 390 px phone", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.admin);
    await page.goto("/settings");
    const item = page.getByRole("listitem", { name: receiverUrl });
    await expect(item.getByRole("button", { name: "Delivery log" })).toBeVisible();
    await item.getByRole("button", { name: "Delivery log" }).click();
    await expect(item.getByTestId("webhook-delivery").first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, "webhooks-phone");
    await context.close();
  });
});
