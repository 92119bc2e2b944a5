// While the event stream cannot connect, the app says "Reconnecting…"; when it is back, what changed in the
// meantime appears without a reload.
import { expect, test } from "@playwright/test";
import { DEMO, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("event stream outage", () => {
  test("shows Reconnecting… while the stream is down and refetches the screen once it is back", async () => {
    const { context, page } = await suite.page(PHONE);
    // The stream cannot reach the server (a proxy restart, a network blip) from the start.
    await page.route("**/api/events**", (route) => route.abort("connectionreset"));
    await signIn(page, DEMO.investor);
    const pendingCard = page.getByTestId("card-pending-verification");
    await expect(pendingCard.getByText("7 milestones pending")).toBeVisible();
    const notice = page.getByRole("status").filter({ hasText: "Reconnecting…" });
    await expect(notice).toBeVisible({ timeout: 10_000 });
    await screenshot(page, "realtime-reconnecting-phone", { fullPage: false });

    // Meanwhile the owner adds a milestone: no push can arrive.
    const owner = await suite.page();
    await signIn(owner.page, DEMO.owner);
    const projects = await (await owner.page.request.get("/api/projects")).json();
    const aire = projects.items.find((p: { name: string }) => p.name.startsWith("Aire Valley"));
    const created = await owner.page.request.post(`/api/projects/${aire.id}/milestones`, {
      data: {
        title: "Outfall works",
        description: "River outfall structure and the discharge consent.",
        dueDate: new Date(Date.now() + 50 * 86_400_000).toISOString().slice(0, 10),
        capitalAmount: 250000,
      },
    });
    expect(created.status()).toBe(201);
    await owner.context.close();
    await expect(pendingCard.getByText("7 milestones pending")).toBeVisible();

    let navigations = 0;
    page.on("framenavigated", () => navigations++);
    await page.unroute("**/api/events**");
    // The next attempt (at most 10 s later) connects: the notice goes and the figure catches up.
    await expect(notice).not.toBeAttached({ timeout: 15_000 });
    await expect(pendingCard.getByText("8 milestones pending")).toBeVisible({ timeout: 10_000 });
    expect(navigations).toBe(0);
    await context.close();
  });
});

test.describe("live updates", () => {
  test("a milestone the owner resubmits appears in the verifier's open queue without a reload", async () => {
    const verifier = await suite.page();
    await signIn(verifier.page, DEMO.verifier);
    await verifier.page.goto("/verifications");
    const queue = verifier.page.getByRole("tabpanel");
    await expect(queue.getByRole("heading", { name: "Handover and occupancy permit" })).toBeVisible();
    const resubmitted = queue.getByRole("heading", { name: "Structural frame, block A" });
    await expect(resubmitted).not.toBeAttached();
    let navigations = 0;
    verifier.page.on("framenavigated", () => navigations++);

    const owner = await suite.page();
    await signIn(owner.page, DEMO.owner);
    const rejected = await (await owner.page.request.get("/api/milestones?status=rejected")).json();
    const frame = rejected.items.find((m: { title: string }) => m.title === "Structural frame, block A");
    const res = await owner.page.request.post(`/api/milestones/${frame.id}/resubmit`);
    expect(res.status()).toBe(200);
    await owner.context.close();

    // The verifier is told (the bell), and the queue on screen follows.
    await expect(resubmitted).toBeVisible({ timeout: 10_000 });
    expect(navigations).toBe(0);
    await verifier.context.close();
  });
});
