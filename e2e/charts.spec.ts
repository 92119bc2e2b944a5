// The Reports charts in a real browser: drawn from live data, summarised in a sentence, readable as a table,
// fitting a phone; admins see verification turnaround on /verifiers.

import { expect, test } from "@playwright/test";
import type { AnalyticsDto } from "@tranche/domain";
import { DEMO, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("charts", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    test(`an investor reads capital over time as a chart and as a table (${name})`, async () => {
      const { context, page } = await suite.page(viewport);
      await signIn(page, DEMO.investor);
      const data = (await (await page.request.get("/api/analytics")).json()) as AnalyticsDto;
      const usd = data.capital.find((c) => c.currency === "USD");
      expect(usd?.points.at(-1)?.released).toBeGreaterThan(0);

      await page.goto("/reports");
      const figure = page.getByRole("figure", { name: "Capital released and settled (USD)" });
      await expect(figure).toBeVisible();
      await expect(figure.locator(".recharts-area").first()).toBeVisible();
      const released = new Intl.NumberFormat("en-US", {
        style: "currency",
        currency: "USD",
        maximumFractionDigits: 0,
      }).format(usd?.points.at(-1)?.released ?? 0);
      await expect(figure.getByText(`${released} released`)).toBeVisible();
      await expect(page.getByRole("figure", { name: "Milestones by status" })).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `reports-charts-${name}`);

      await figure.getByRole("button", { name: "Show table" }).click();
      const rows = figure.getByRole("row");
      await expect(rows).toHaveCount(13); // a header and twelve months
      await expect(figure.getByRole("cell", { name: released }).first()).toBeVisible();
      await context.close();
    });
  }

  test("every chart is drawn, those below the window too, and a pointer over one shows its figures", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    await page.goto("/reports");
    const figures = page.getByRole("figure");
    await expect(figures).toHaveCount(6);
    // The charts in the window are drawn with the page; the last one, below it, once the page is idle.
    for (const figure of await figures.all()) await expect(figure.locator(".recharts-surface")).toHaveCount(1);
    const capital = page.getByRole("figure", { name: "Capital released and settled (USD)" });
    await expect(capital.locator(".recharts-tooltip-wrapper")).toHaveCount(0);
    const box = await capital.locator(".recharts-surface").boundingBox();
    if (!box) throw new Error("the chart has no box");
    await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width * 0.95, box.y + box.height / 2);
    await expect(capital.locator(".recharts-tooltip-wrapper")).toContainText("Released");
    await expect(capital.locator(".recharts-tooltip-wrapper")).toContainText("Settled");
    await context.close();
  });

  test("an admin sees verification turnaround on /verifiers; a verifier sees no charts on /reports", async () => {
    const admin = await suite.page(DESKTOP);
    await signIn(admin.page, DEMO.admin);
    await admin.page.goto("/verifiers");
    const figure = admin.page.getByRole("figure", { name: "Verification turnaround" });
    await expect(figure).toBeVisible();
    await expect(figure.getByText(/decisions; \d+% within 7 days/)).toBeVisible();
    await screenshot(admin.page, "verifiers-turnaround-desktop");
    await admin.context.close();

    const verifier = await suite.page(DESKTOP);
    await signIn(verifier.page, DEMO.verifier);
    await verifier.page.goto("/reports");
    await expect(verifier.page.getByRole("heading", { name: "Reports" })).toBeVisible();
    await expect(verifier.page.getByRole("figure")).toHaveCount(0);
    await verifier.context.close();
  });
});
