// The verifier's field view on a phone (390×844) with a fixed position: the installable app's service worker, the
// assignments with distance and directions (a page at a time, searched on the device), a site visit with no signal
// (checklist with notes, two captures, an approval) whose queue drains in order once back online, a conflict when
// the owner resubmits meanwhile, and a capture taken 5 km from the site flagged for everyone.
import { createHash } from "node:crypto";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { DEMO, DESKTOP, openLive, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

// The Mojave site as seeded, and where the verifier stands: at its gate, or 5 km east of it.
const MOJAVE_SITE = { latitude: 35.80214, longitude: -114.97936 };
const AT_THE_GATE = { latitude: 35.8025, longitude: -114.9789 };
const FIVE_KM_EAST = { latitude: 35.80214, longitude: -114.92396 };

type Place = { latitude: number; longitude: number };

/**
 * The device reports where it stands. A real phone's fix keeps being renewed while the page follows it; an emulated
 * one keeps the time it was set, so a test sets it again just before a capture, which tags itself with the followed
 * position only while that is recent (CAPTURE_FIX_MAX_AGE_MS).
 */
const standAt = (context: BrowserContext, place: Place) => context.setGeolocation({ ...place, accuracy: 8 });

async function phone(place: Place) {
  const { context, page } = await suite.page(PHONE);
  await context.grantPermissions(["geolocation"]);
  await standAt(context, place);
  return { context, page };
}

interface Assignment {
  milestoneId: string;
  title: string;
  urgency: string;
}

async function assignmentId(page: Page, title: string): Promise<string> {
  const res = await page.request.get("/api/field/assignments");
  const { items } = (await res.json()) as { items: Assignment[] };
  const found = items.find((a) => a.title === title);
  if (!found) throw new Error(`no assignment ${title}`);
  return found.milestoneId;
}

const card = (page: Page, title: string) =>
  page.getByTestId("assignment").filter({ has: page.getByRole("heading", { name: title }) });
const queueItems = (page: Page) => page.getByRole("list", { name: "Queue" }).getByTestId("queue-item");

/**
 * The service worker is installed (the app's shell and code are on the device) and controls the page. Installing
 * downloads every file of the app, which takes seconds on a busy machine; the page's own promise says when it is done.
 */
async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
    );
  });
}

/**
 * The owner uploads a file to another milestone of the project, then the same bytes with their own capture tags to
 * `milestoneId`; answers once the background checks have flagged it.
 */
async function ownerUploadsReusedCapture(page: Page, milestoneId: string) {
  const { projectId } = (await (await page.request.get(`/api/milestones/${milestoneId}`)).json()) as {
    projectId: string;
  };
  const project = (await (await page.request.get(`/api/projects/${projectId}`)).json()) as {
    milestones: { id: string; title: string; status: string }[];
  };
  const other = project.milestones.find((m) => m.id !== milestoneId && m.status !== "verified");
  if (!other) throw new Error("The project has no other open milestone.");
  const buffer = Buffer.from(`last quarter's invoice ${Date.now()}`);
  const name = "invoice-again.pdf";
  const file = { name, mimeType: "application/pdf", buffer };
  expect(
    (await page.request.post(`/api/milestones/${other.id}/evidence`, { multipart: { files: file } })).status(),
  ).toBe(201);
  const capture = {
    sha256: createHash("sha256").update(buffer).digest("hex"),
    ...AT_THE_GATE,
    accuracy: 15,
    capturedAt: new Date().toISOString(),
  };
  const res = await page.request.post(`/api/milestones/${milestoneId}/evidence`, {
    multipart: { files: file, captures: JSON.stringify([capture]) },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { items } = (await res.json()) as { items: { id: string }[] };
  await expect
    .poll(
      async () => {
        const checks = (await (await page.request.get(`/api/evidence/${items[0].id}/checks`)).json()) as {
          flags: { code: string }[];
        };
        return checks.flags.map((f) => f.code);
      },
      { timeout: 30_000 },
    )
    .toContain("reused_file");
  return { name, otherTitle: other.title };
}

async function openAssignment(page: Page, title: string) {
  await page.goto("/field");
  await expect(page.getByRole("heading", { name: "Your assignments" })).toBeVisible();
  await card(page, title)
    .getByRole("link", { name: `Open assignment: ${title},` })
    .click();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(page.getByTestId("kept-note").getByText("Kept on this device")).toBeVisible();
}

async function verification(context: BrowserContext, milestoneId: string) {
  // The API request context is not the page's network: it reaches the server while the page is offline.
  const res = await context.request.get(`/api/milestones/${milestoneId}/verification`);
  return (await res.json()) as { status: string; round: number };
}

async function workChecklistAndApprove(page: Page) {
  for (const label of [
    "Documentation review complete",
    "Compliance with project standards verified",
    "Quality standards met",
    "Timeline adherence confirmed",
    "Budget utilization validated",
    "Risk assessment completed",
  ]) {
    await page.getByRole("checkbox", { name: label }).check();
  }
  await page.getByLabel("Note: Quality standards met").fill("Inverter pads level; cabling labelled.");
  await page.getByLabel("Note: Timeline adherence confirmed").fill("Delivery notes dated within the window.");
  await page.getByRole("button", { name: "Save checklist" }).click();
  await expect(queueItems(page).filter({ hasText: "Checklist and notes" })).toBeVisible();

  await standAt(page.context(), AT_THE_GATE);
  await page.getByLabel("Take photo").setInputFiles({
    name: "inverters.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("JPEG bytes of the inverter row, taken on site"),
  });
  await expect(queueItems(page).filter({ hasText: "Capture: inverters.jpg" })).toBeVisible();
  await page.getByLabel("Add document").setInputFiles({
    name: "delivery-note.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4 delivery note signed on site"),
  });
  await expect(queueItems(page).filter({ hasText: "Capture: delivery-note.pdf" })).toBeVisible();

  await page.getByLabel("Comments").fill("Panels and inverters delivered and checked on site.");
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Approve" }).click();
  await expect(queueItems(page).filter({ hasText: "Approve" })).toBeVisible();
}

test.describe("the field view", () => {
  test("is installable from the signed-in app only, lists assignments by urgency with distance and directions", async () => {
    const { context, page } = await phone(AT_THE_GATE);
    await openLive(page, "/");
    // The public pages link no manifest and register no worker.
    await expect(page.locator('link[rel="manifest"]')).toHaveCount(0);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);

    await signIn(page, DEMO.verifier);
    await page.goto("/field");
    await expect(page.getByRole("heading", { name: "Your assignments" })).toBeVisible();
    await expect(page.locator('link[rel="manifest"]')).toHaveCount(1);
    const manifest = await (await context.request.get("/manifest.webmanifest")).json();
    expect(manifest).toMatchObject({ name: "Tranche", display: "standalone", start_url: "/dashboard" });
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(["192x192", "512x512", "512x512"]);
    await waitForServiceWorker(page);

    // In verification for eight days, past the three the verification SLA gives: overdue, first in the list.
    const panel = card(page, "Panel and inverter delivery");
    await expect(panel.getByText("Overdue")).toBeVisible();
    await expect(panel.getByTestId("site-coordinates")).toHaveText("35.80214° N, 114.97936° W");
    await expect(panel.getByTestId("site-distance").getByText(/\d+ m from you/)).toBeVisible();
    await expect(panel.getByRole("link", { name: "Directions" })).toHaveAttribute(
      "href",
      `https://www.google.com/maps/dir/?api=1&destination=${MOJAVE_SITE.latitude},${MOJAVE_SITE.longitude}`,
    );
    // Most urgent first.
    const order = ["Overdue", "Due soon", "Resubmitted", "New"];
    const badges = await page
      .getByTestId("assignment")
      .evaluateAll((cards) => cards.map((c) => c.querySelector("span")?.textContent ?? ""));
    expect(badges.length).toBeGreaterThan(2);
    const ranks = badges.map((b) => order.indexOf(b));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    await screenshot(page, "field-phone");
    await context.close();

    const desktop = await suite.page(DESKTOP);
    await signIn(desktop.page, DEMO.verifier);
    await desktop.page
      .getByRole("navigation", { name: "Side navigation" })
      .getByRole("link", { name: "Field" })
      .click();
    await expect(desktop.page.getByRole("heading", { name: "Your assignments" })).toBeVisible();
    await screenshot(desktop.page, "field-desktop");
    await desktop.context.close();
  });

  test("shows a fund's worth of assignments a page at a time and searches them on the device, also with no signal", async () => {
    const { context, page } = await phone(AT_THE_GATE);
    await signIn(page, DEMO.verifier);
    // The demo verifier has a handful of assignments; a large fund's verifier has hundreds. The server's answer is
    // lengthened here with 60 more, due after all the real ones (the server's order: urgency, then due date).
    const real = ((await (await page.request.get("/api/field/assignments")).json()) as { items: Assignment[] }).items;
    const more = Array.from({ length: 60 }, (_, i) => ({
      ...real[0],
      milestoneId: crypto.randomUUID(),
      title: `Tranche ${(i % 5) + 1}: Site check`,
      projectName: `Harbour Works ${i + 1}`,
      location: "Valparaíso",
      urgency: "new",
      dueDate: `2099-01-${String((i % 28) + 1).padStart(2, "0")}`,
    }));
    const total = real.length + more.length;
    await page.route("**/api/field/assignments", (route) => route.fulfill({ json: { items: [...real, ...more] } }));
    await page.goto("/field");
    await expect(page.getByTestId("assignments-summary")).toContainText(`${total} open assignments`);
    const cards = page.getByTestId("assignment");
    const footer = page.getByText(/^Showing \d+ of/);
    await expect(cards).toHaveCount(25);
    await expect(footer).toHaveText(`Showing 25 of ${total} assignments`);
    // The most urgent first, as before: the first page starts with the real ones.
    await expect(cards.first()).toContainText(real[0].title);
    await page.getByRole("button", { name: "Show more assignments" }).click();
    await expect(cards).toHaveCount(50);
    await page.getByRole("button", { name: "Show more assignments" }).click();
    await expect(cards).toHaveCount(total);
    await expect(footer).toHaveText(`Showing ${total} of ${total} assignments`);
    await expect(page.getByRole("button", { name: "Show more assignments" })).toHaveCount(0);

    // Every word, in the title, project or place, accents or not; a new search starts at its first page.
    const search = page.getByLabel("Search assignments");
    await search.fill("valparaiso site check");
    await expect(footer).toHaveText("Showing 25 of 60 assignments");
    await search.fill("harbour works 17");
    await expect(footer).toHaveText("Showing 1 of 1 assignment");
    await expect(cards).toHaveCount(1);
    await search.fill("");
    await expect(footer).toHaveText(`Showing 25 of ${total} assignments`);

    // The whole list is kept on the device, not only the page shown: with no signal it is all there, and searchable.
    await waitForServiceWorker(page);
    await page.unroute("**/api/field/assignments");
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText(/No connection: your assignments as kept on this device/)).toBeVisible();
    await expect(footer).toHaveText(`Showing 25 of ${total} assignments`);
    await search.fill("Harbour Works 60");
    await expect(cards).toHaveCount(1);
    await search.fill("no such site");
    await expect(page.getByText("No assignment matches")).toBeVisible();
    await screenshot(page, "field-search-offline-phone");
    await context.close();
  });

  test("works a visit with no signal; back online the queue drains in order and the milestone is verified once", async () => {
    const { context, page } = await phone(AT_THE_GATE);
    await signIn(page, DEMO.verifier);
    const id = await assignmentId(page, "Panel and inverter delivery");
    await openAssignment(page, "Panel and inverter delivery");
    await waitForServiceWorker(page);
    await screenshot(page, "field-assignment-phone");

    await context.setOffline(true);
    // Opened again with no signal: the shell from the service worker, the visit from the device.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Panel and inverter delivery", level: 1 })).toBeVisible();
    await expect(page.getByRole("status").getByText("Offline")).toBeVisible();
    await expect(page.getByTestId("kept-note").getByText("No connection: as kept on this device")).toBeVisible();

    await workChecklistAndApprove(page);
    await expect
      .poll(() => queueItems(page).evaluateAll((items) => items.map((i) => i.getAttribute("data-status"))))
      .toEqual(["waiting", "waiting", "waiting", "waiting"]);
    await expect(page.getByTestId("capture").first()).toContainText("from the site");
    await screenshot(page, "field-assignment-offline-phone");
    await expect.poll(async () => (await verification(context, id)).status).toBe("in_verification");

    await context.setOffline(false);
    await expect(page.getByRole("status").getByText("Online")).toBeVisible();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[aria-label="Queue"] [data-testid="queue-item"]')].every(
          (item) => item.getAttribute("data-status") === "sent",
        ),
      undefined,
      { timeout: 30_000 },
    );
    await expect(page.getByTestId("decided-note").getByText("Verified")).toBeVisible();

    // Sent in the order it was done: the checklist, both captures, then the approval.
    const history = (await (await context.request.get(`/api/milestones/${id}/history`)).json()) as {
      items: { action: string }[];
    };
    const actions = history.items
      .map((e) => e.action)
      .filter((a) => ["milestone.checklist_updated", "evidence.uploaded", "milestone.approved"].includes(a));
    expect(actions.slice(-4)).toEqual([
      "milestone.checklist_updated",
      "evidence.uploaded",
      "evidence.uploaded",
      "milestone.approved",
    ]);
    const detail = (await (await context.request.get(`/api/milestones/${id}`)).json()) as {
      status: string;
      releases: unknown[];
    };
    expect(detail.status).toBe("verified");
    expect(detail.releases).toHaveLength(1);
    const evidence = (await (await context.request.get(`/api/milestones/${id}/evidence`)).json()) as {
      items: { originalName: string; capture: { distanceToSiteM: number } | null; flags: unknown[] }[];
    };
    const captured = evidence.items.filter((e) => ["inverters.jpg", "delivery-note.pdf"].includes(e.originalName));
    expect(captured).toHaveLength(2);
    for (const e of captured) {
      expect(e.capture?.distanceToSiteM).toBeLessThan(1000);
      expect(e.flags).toEqual([]);
    }
    const notes = (await verification(context, id)) as unknown as { checklistNotes: Record<string, string> };
    expect(notes.checklistNotes.quality).toBe("Inverter pads level; cabling labelled.");
    await screenshot(page, "field-assignment-sent-phone");
    await context.close();
  });

  test("ends in a conflict warning, not a silent decision, when the owner resubmits while the verifier is offline", async () => {
    const { context, page } = await phone(AT_THE_GATE);
    await signIn(page, DEMO.verifier);
    const id = await assignmentId(page, "Battery storage installation");
    await openAssignment(page, "Battery storage installation");
    await page.getByRole("button", { name: "Start verification" }).click();
    await expect(page.getByRole("heading", { name: "Checklist" })).toBeVisible();
    // Sent, and the visit kept again as the server now has it (in verification).
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="queue-item"]')].every(
        (i) => i.getAttribute("data-status") === "sent",
      ),
    );
    await expect(page.getByText("In Verification", { exact: true }).first()).toBeVisible();
    await expect.poll(() => verification(context, id)).toMatchObject({ status: "in_verification", round: 1 });

    await context.setOffline(true);
    await expect(page.getByRole("status").getByText("Offline")).toBeVisible();
    await page.getByRole("checkbox", { name: "Documentation review complete" }).check();
    await page.getByRole("button", { name: "Save checklist" }).click();
    await page.getByLabel("Comments").fill("Battery containers installed.");
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("decision-note")).toBeVisible();

    // Meanwhile the milestone is decided from another device and the owner resubmits it: a new round.
    const rejected = await context.request.post(`/api/milestones/${id}/reject`, {
      data: { comments: "Fire suppression certificate missing." },
    });
    expect(rejected.status()).toBe(200);
    const owner = await suite.page(DESKTOP);
    await signIn(owner.page, DEMO.owner);
    expect((await owner.page.request.post(`/api/milestones/${id}/resubmit`)).status()).toBe(200);
    await owner.context.close();
    await expect.poll(() => verification(context, id)).toMatchObject({ status: "pending", round: 2 });

    await context.setOffline(false);
    const alert = page.getByRole("alert").filter({ hasText: "Conflict: this milestone changed while you were away" });
    await expect(alert).toBeVisible({ timeout: 30_000 });
    await expect(alert.getByText("round 2")).toBeVisible();
    await expect
      .poll(() => queueItems(page).evaluateAll((items) => items.map((i) => i.getAttribute("data-status"))))
      .toEqual(["sent", "needs_attention", "needs_attention"]);
    // Nothing was applied: pending in round 2, no release.
    await expect.poll(() => verification(context, id)).toMatchObject({ status: "pending", round: 2 });
    const detail = (await (await context.request.get(`/api/milestones/${id}`)).json()) as { releases: unknown[] };
    expect(detail.releases).toEqual([]);
    await screenshot(page, "field-conflict-phone");

    // Deciding again starts from the milestone as it is now.
    await alert.getByRole("button", { name: "Review and decide again" }).click();
    await expect(page.getByRole("button", { name: "Start verification" })).toBeVisible();
    await context.close();
  });

  test("ends in a conflict, not a release, when the owner adds a file while the verifier's approval waits offline", async () => {
    const { context, page } = await phone(AT_THE_GATE);
    await signIn(page, DEMO.verifier);
    const title = "Handover and occupancy permit";
    const id = await assignmentId(page, title);
    await openAssignment(page, title);
    await page.getByRole("button", { name: "Start verification" }).click();
    await expect(page.getByRole("heading", { name: "Checklist" })).toBeVisible();
    await expect.poll(() => verification(context, id)).toMatchObject({ status: "in_verification" });

    await context.setOffline(true);
    await expect(page.getByRole("status").getByText("Offline")).toBeVisible();
    await page.getByLabel("Comments").fill("Keys handed over; permit seen on site.");
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("decision-note")).toBeVisible();

    // Meanwhile the owner adds a file the verifier has not seen: the approval must not release on it.
    const owner = await suite.page(DESKTOP);
    await signIn(owner.page, DEMO.owner);
    const added = await owner.page.request.post(`/api/milestones/${id}/evidence`, {
      multipart: {
        files: { name: "occupancy-permit.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") },
      },
    });
    expect(added.status()).toBe(201);
    await owner.context.close();

    await context.setOffline(false);
    const alert = page.getByRole("alert").filter({ hasText: "Conflict: this milestone changed while you were away" });
    await expect(alert).toBeVisible({ timeout: 30_000 });
    await expect(alert.getByText(`The evidence of "${title}" changed since you saw it`)).toBeVisible();
    await expect.poll(() => verification(context, id)).toMatchObject({ status: "in_verification" });
    const detail = (await (await context.request.get(`/api/milestones/${id}`)).json()) as { releases: unknown[] };
    expect(detail.releases).toEqual([]);
    await screenshot(page, "field-evidence-conflict-phone");
    await context.close();
  });

  test("ends in a conflict, not a release, when a capture the approval counted is discarded and the owner adds a file", async () => {
    const { context, page } = await phone(AT_THE_GATE);
    await signIn(page, DEMO.verifier);
    const title = "Handover and occupancy permit";
    const id = await assignmentId(page, title);
    // Started from the desk (or already, by the test before): the visit is kept as in verification.
    expect((await context.request.post(`/api/milestones/${id}/start`, { data: {} })).status()).toBe(200);
    await openAssignment(page, title);
    await expect(page.getByRole("heading", { name: "Checklist" })).toBeVisible();

    await context.setOffline(true);
    await expect(page.getByRole("status").getByText("Offline")).toBeVisible();
    // A capture, then an approval made with it counted in; then the capture's bytes are lost from the device
    // (storage the browser reclaimed): it can never be sent.
    await page.getByLabel("Add document").setInputFiles({
      name: "permit.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4 occupancy permit photographed on site"),
    });
    await expect(queueItems(page).filter({ hasText: "Capture: permit.pdf" })).toBeVisible();
    await page.getByLabel("Comments").fill("Keys handed over; permit seen on site.");
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("decision-note")).toBeVisible();
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const opened = indexedDB.open("tranche-field");
          opened.onerror = () => reject(opened.error);
          opened.onsuccess = () => {
            const tx = opened.result.transaction("queue", "readwrite");
            const store = tx.objectStore("queue");
            const all = store.getAll();
            all.onsuccess = () => {
              for (const record of all.result) {
                if (record.kind === "evidence") {
                  delete record.file;
                  store.put(record);
                }
              }
            };
            tx.oncomplete = () => resolve();
            tx.onerror = () => reject(tx.error);
          };
        }),
    );

    // Meanwhile the owner adds a file the verifier has not seen: one file more, as the lost capture would have been.
    const owner = await suite.page(DESKTOP);
    await signIn(owner.page, DEMO.owner);
    const added = await owner.page.request.post(`/api/milestones/${id}/evidence`, {
      multipart: { files: { name: "glazing-spec.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") } },
    });
    expect(added.status()).toBe(201);
    await owner.context.close();

    await context.setOffline(false);
    const refused = queueItems(page).filter({ hasText: "Capture: permit.pdf" });
    await expect(refused.getByText("The captured file is no longer on this device.")).toBeVisible({
      timeout: 30_000,
    });
    await refused.getByRole("button", { name: "Discard" }).click();
    // The approval counted the discarded file: it is not sent on the owner's file, it asks for a second look.
    const approval = queueItems(page).filter({ hasText: "Approve" });
    await expect(approval).toHaveAttribute("data-status", "needs_attention", { timeout: 30_000 });
    await expect(approval.getByText(/permit\.pdf was discarded/)).toBeVisible();
    await expect.poll(() => verification(context, id)).toMatchObject({ status: "in_verification" });
    const detail = (await (await context.request.get(`/api/milestones/${id}`)).json()) as { releases: unknown[] };
    expect(detail.releases).toEqual([]);
    await context.close();
  });

  test("flags a capture taken 5 km from the site, for the verifier and the owner", async () => {
    const { context, page } = await phone(FIVE_KM_EAST);
    await signIn(page, DEMO.verifier);
    const id = await assignmentId(page, "Grid interconnection");
    await openAssignment(page, "Grid interconnection");
    await standAt(context, FIVE_KM_EAST);
    await page.getByLabel("Take photo").setInputFiles({
      name: "substation.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.from("a photo of a substation somewhere else"),
    });
    await expect(page.getByTestId("capture-far")).toBeVisible();
    const flag = page.locator('[data-flag="far_from_site"]');
    await expect(flag).toBeVisible({ timeout: 30_000 });
    await expect(flag).toHaveText(/Captured 5\.\d km from the project's site/);
    await screenshot(page, "field-capture-flagged-phone");
    await context.close();

    const owner = await suite.page(DESKTOP);
    await signIn(owner.page, DEMO.owner);
    await owner.page.goto(`/milestones/${id}`);
    await owner.page.getByRole("tab", { name: "Evidence" }).click();
    await expect(owner.page.locator('[data-flag="far_from_site"]')).toBeVisible();
    await expect(owner.page.getByTestId("capture-tags").first().getByText("from the site")).toBeVisible();
    await expect(owner.page.getByTestId("capture-tags").first()).toContainText("Captured by the verifier's device");
    await screenshot(owner.page, "evidence-flags-desktop");

    // The owner's own tags say so, and a file already on another milestone is flagged as reused, byte for byte.
    const reused = await ownerUploadsReusedCapture(owner.page, id);
    await owner.page.reload();
    await owner.page.getByRole("tab", { name: "Evidence" }).click();
    const item = owner.page
      .getByRole("listitem")
      .filter({ hasText: reused.name })
      .filter({ has: owner.page.getByTestId("capture-tags") });
    await expect(item.getByTestId("capture-tags")).toContainText(
      "Position stated by the project owner's device (not a verifier's capture)",
    );
    await expect(item.locator('[data-flag="reused_file"]')).toContainText(
      `This exact file (the same SHA-256) was uploaded before, in this project's milestone "${reused.otherTitle}".`,
    );
    for (const [name, width] of [
      ["desktop", 1280],
      ["phone", 390],
    ] as const) {
      await owner.page.setViewportSize({ width, height: 900 });
      await item.scrollIntoViewIfNeeded();
      await owner.page.screenshot({ path: `/tmp/evidence-${name}.png` });
    }
    await owner.context.close();
  });

  test("ends in a conflict, not a request sent again and again, when the milestone is decided elsewhere meanwhile", async () => {
    const { context, page } = await phone(AT_THE_GATE);
    await signIn(page, DEMO.verifier);
    const title = "Grid interconnection";
    const id = await assignmentId(page, title);
    await openAssignment(page, title);
    const urgency = page.getByText(/^(Overdue|Due soon|Resubmitted|New)$/);
    await expect(urgency).toHaveCount(1);
    await expect(page.getByText("Pending", { exact: true })).toBeVisible();

    await context.setOffline(true);
    await expect(page.getByRole("status").getByText("Offline")).toBeVisible();
    await page.getByRole("button", { name: "Start verification" }).click();
    await page.getByRole("checkbox", { name: "Documentation review complete" }).check();
    await page.getByRole("button", { name: "Save checklist" }).click();
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Approve" }).click();
    await expect(page.getByTestId("decision-note")).toBeVisible();

    // Meanwhile the verifier starts and rejects it from their desk: the same round, decided.
    expect((await context.request.post(`/api/milestones/${id}/start`, { data: {} })).status()).toBe(200);
    const rejected = await context.request.post(`/api/milestones/${id}/reject`, {
      data: { comments: "Interconnection agreement not signed." },
    });
    expect(rejected.status()).toBe(200);

    await context.setOffline(false);
    // Not a "Send again" that can only be refused again, with the rest of the visit waiting behind it: a conflict.
    const alert = page.getByRole("alert").filter({ hasText: "Conflict: this milestone changed while you were away" });
    await expect(alert).toBeVisible({ timeout: 30_000 });
    await expect(alert.getByText("Milestone is rejected; it cannot be started.")).toBeVisible();
    await expect
      .poll(() => queueItems(page).evaluateAll((items) => items.map((i) => i.getAttribute("data-status"))))
      .toEqual(["needs_attention", "needs_attention", "needs_attention"]);
    await expect(queueItems(page).getByRole("button", { name: "Send again" })).toHaveCount(0);
    // The page looks at the milestone again by itself: decided, so nothing of the visit can be sent for its round
    // (it could only be refused again), and no urgency is left to show.
    await expect(page.getByText("Rejected", { exact: true })).toBeVisible();
    await expect(page.getByText("Pending", { exact: true })).toHaveCount(0);
    await expect(queueItems(page).getByRole("button", { name: /^Send for round/ })).toHaveCount(0);
    await expect(urgency).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Save checklist" })).toHaveCount(0);
    await expect(page.getByTestId("decision-note")).toHaveCount(0);
    await expect(page.getByTestId("decided-note")).toHaveText(/^Rejected by Vera Lindqvist/);
    await screenshot(page, "field-decided-elsewhere-phone");

    await alert.getByRole("button", { name: "Review and decide again" }).click();
    await expect(page.getByTestId("decided-note")).toHaveText(/^Rejected by Vera Lindqvist/);
    const detail = (await (await context.request.get(`/api/milestones/${id}`)).json()) as { releases: unknown[] };
    expect(detail.releases).toEqual([]);
    await context.close();
  });
});
