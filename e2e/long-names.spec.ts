// Issue 15: a 60-character unbroken name wraps (or truncates with the full name in its title) on every screen
// that shows it, at desktop and phone width: nothing pushes past its card or widens the page. And the actions the
// server would refuse are shown disabled with its reason.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, expectToast, failFirstRequest, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

const LONG = "AcceptanceBridgeAcc17953714937952326UnbrokenNameForWrapping0";
const LONG_TITLE = "MilestoneTitleWithoutAnySpacesToCheckWrappingEverywhere00001";
const LONG_FILE = "evidence-file-with-a-very-long-unbroken-name-abcdefghij01.pdf";
const DESKTOP_1280 = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let projectId = "";
let milestoneId = "";

test.beforeAll(async () => {
  expect(LONG).toHaveLength(60);
  expect(LONG_TITLE).toHaveLength(60);
  const { context, page } = await suite.page();
  await signIn(page, DEMO.owner);
  const created = await page.request.post("/api/projects", {
    data: { name: LONG, description: `${LONG} ${LONG}`, totalCapital: 1_000_000, location: LONG, currency: "USD" },
  });
  expect(created.status()).toBe(201);
  projectId = ((await created.json()) as { id: string }).id;
  const milestone = await page.request.post(`/api/projects/${projectId}/milestones`, {
    data: { title: LONG_TITLE, description: `${LONG_TITLE} description`, dueDate: "2030-01-01", capitalAmount: 5000 },
  });
  expect(milestone.status()).toBe(201);
  milestoneId = ((await milestone.json()) as { id: string }).id;
  const upload = await page.request.post(`/api/milestones/${milestoneId}/evidence`, {
    multipart: { files: { name: LONG_FILE, mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 test") } },
  });
  expect(upload.status()).toBe(201);
  await context.close();
});
test.afterAll(() => undefined);

/** The page is no wider than the viewport, and no element showing the long text spills out of its box. */
async function fits(page: Page, viewport: { width: number }) {
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => {
        if (el.getBoundingClientRect().right <= window.innerWidth + 1) return false;
        if (el.closest("[data-sonner-toaster]")) return false;
        for (let up = el.parentElement; up; up = up.parentElement) {
          if (["auto", "scroll", "hidden"].includes(getComputedStyle(up).overflowX)) return false;
        }
        return true;
      })
      .slice(-3)
      .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
  );
  expect(wide).toEqual([]);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(viewport.width);
  const spills = await page.evaluate(
    (needles) => {
      const out: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>("body *")) {
        if (el.children.length > 0) continue;
        const text = el.textContent ?? "";
        if (!needles.some((n) => text.includes(n))) continue;
        const style = getComputedStyle(el);
        const clipped = style.overflow === "hidden" && style.textOverflow === "ellipsis";
        if (clipped && !(el.title || el.closest("[title]"))) out.push(`truncated without a title: ${text}`);
        if (!clipped && el.scrollWidth > el.clientWidth + 1 && style.overflowX !== "auto") {
          out.push(`overflows: ${text.slice(0, 40)}`);
        }
        if (el.getBoundingClientRect().right > window.innerWidth + 1) out.push(`past the viewport: ${text}`);
      }
      return out;
    },
    [LONG.slice(0, 30), LONG_TITLE.slice(0, 30), LONG_FILE.slice(0, 30)],
  );
  expect(spills).toEqual([]);
}

test.describe("long unbroken names", () => {
  for (const [viewport, name] of [
    [DESKTOP_1280, "desktop"],
    [PHONE, "phone"],
  ] as const) {
    test(`wrap or truncate with the full name available at ${name} width`, async () => {
      const { context, page } = await suite.page(viewport);
      await signIn(page, DEMO.owner);

      // The dashboard's Projects tab, opened from its URL.
      await page.goto("/dashboard?tab=projects");
      const card = page.getByTestId("project-card").filter({ hasText: LONG.slice(0, 20) });
      await expect(card).toBeVisible();
      const [cardBox, badgeBox] = await Promise.all([
        card.boundingBox(),
        card.getByText("Pending Verification").boundingBox(),
      ]);
      expect(badgeBox && cardBox && badgeBox.x + badgeBox.width).toBeLessThanOrEqual(
        (cardBox?.x ?? 0) + (cardBox?.width ?? 0),
      );
      await fits(page, viewport);
      await screenshot(page, `long-name-projects-${name}`);

      await page.goto("/dashboard");
      await expect(page.getByRole("list", { name: "Your projects" })).toBeVisible();
      await fits(page, viewport);
      await screenshot(page, `long-name-dashboard-${name}`);

      await page.goto(`/projects/${projectId}`);
      await expect(page.getByRole("heading", { level: 1 }).filter({ hasText: LONG.slice(0, 20) })).toBeVisible();
      await fits(page, viewport);
      await screenshot(page, `long-name-project-${name}`);
      for (const tab of ["Milestones", "Team", "Finances"]) {
        await page.getByRole("tab", { name: tab }).click();
        await page.waitForTimeout(200);
        await fits(page, viewport);
      }
      await screenshot(page, `long-name-project-finances-${name}`);

      await page.goto(`/milestones/${milestoneId}`);
      await expect(page.getByRole("heading", { level: 1 }).filter({ hasText: LONG_TITLE.slice(0, 20) })).toBeVisible();
      await fits(page, viewport);
      await page.getByRole("tab", { name: "Evidence" }).click();
      await expect(page.getByText(LONG_FILE).first()).toBeVisible();
      await fits(page, viewport);
      await screenshot(page, `long-name-milestone-${name}`);

      for (const path of ["/projects", "/milestones", "/notifications"]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await page.waitForLoadState("networkidle");
        await fits(page, viewport);
        await screenshot(page, `long-name-${path.slice(1)}-${name}`);
      }
      await context.close();
    });
  }

  test("the admin's screens (users, recent projects, team) fit too", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.admin);
    await expect(page.getByRole("list", { name: "Recent projects" })).toBeVisible();
    await fits(page, PHONE);
    await screenshot(page, "long-name-admin-dashboard-phone");
    await page.goto(`/projects/${projectId}`);
    await page.getByRole("tab", { name: "Team" }).click();
    await expect(page.getByRole("button", { name: "Assign Verifier" })).toBeVisible();
    await fits(page, PHONE);
    await screenshot(page, "long-name-admin-team-phone");
    // Each page once its list is in: the event stream the app keeps open means the network is never idle.
    for (const [path, loaded] of [
      ["/users", "Avery Chen"],
      ["/projects", LONG.slice(0, 20)],
      ["/verifiers", "Vera Lindqvist"],
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByText(loaded).first()).toBeVisible();
      await fits(page, PHONE);
    }
    await context.close();
  });

  test("removing the long-named evidence file confirms and toasts", async () => {
    const { context, page } = await suite.page(DESKTOP_1280);
    await signIn(page, DEMO.owner);
    await page.goto(`/milestones/${milestoneId}`);
    await page.getByRole("tab", { name: "Evidence" }).click();
    await page.getByRole("button", { name: `Remove ${LONG_FILE}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove file" }).click();
    await expectToast(page, "was removed from the evidence");
    await context.close();
  });
});

test.describe("load failures", () => {
  test("each list says what failed and offers Try again, which loads it", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.investor);
    const cases = [
      { path: "/milestones", api: "/api/milestones", title: "Could not load milestones" },
      { path: "/verifiers", api: "/api/verifiers", title: "Could not load verifiers" },
      { path: "/notifications", api: "/api/notifications", title: "Could not load notifications" },
      { path: "/reports", api: "/api/reports", title: "Could not load reports" },
    ];
    for (const c of cases) {
      // The first request fails (a 500 is not retried automatically); the next ones reach the server.
      const unroute = await failFirstRequest(page, (url) => url.pathname === c.api);
      await page.goto(c.path);
      const alert = page.getByRole("alert").filter({ hasText: c.title });
      await expect(alert).toBeVisible();
      await expect(alert).toContainText("The database is unavailable.");
      if (c.path === "/milestones") await screenshot(page, "load-error-phone", { fullPage: false });
      await alert.getByRole("button", { name: "Try again" }).click();
      await expect(alert).not.toBeAttached();
      await unroute();
    }
    await context.close();
  });

  test("a project or milestone page says what failed and offers Try again, instead of loading for ever", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    const cases = [
      { path: `/projects/${projectId}`, title: "Error loading project", heading: LONG },
      { path: `/milestones/${milestoneId}`, title: "Error loading milestone", heading: LONG_TITLE },
    ];
    for (const c of cases) {
      const unroute = await failFirstRequest(page, (url) => url.pathname === `/api${c.path}`);
      await page.goto(c.path);
      await expectToast(page, "The database is unavailable.");
      const alert = page.getByRole("main").getByRole("alert").filter({ hasText: c.title });
      await expect(alert).toContainText("The database is unavailable.");
      await expect(page.getByRole("main").locator("[aria-busy=true]")).toHaveCount(0);
      await alert.getByRole("button", { name: "Try again" }).click();
      await expect(page.getByRole("heading", { name: c.heading, level: 1 })).toBeVisible();
      await unroute();
    }
    await context.close();
  });
});
