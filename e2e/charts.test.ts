// The Reports charts in a real browser: drawn from live data, summarised in a sentence, readable as a table,
// fitting a phone; admins see verification turnaround on /verifiers.
import type { AnalyticsDto } from "@tranche/domain";
import { describe, expect, it } from "vitest";
import { DEMO, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/vitest-suite";

const suite = useBrowserSuite();

describe("charts", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`an investor reads capital over time as a chart and as a table (${name})`, async () => {
      const { context, page } = await suite.page(viewport);
      await signIn(page, DEMO.investor);
      const data = (await (await page.request.get("/api/analytics")).json()) as AnalyticsDto;
      const usd = data.capital.find((c) => c.currency === "USD");
      expect(usd?.points.at(-1)?.released).toBeGreaterThan(0);

      await page.goto("/reports");
      const figure = page.getByRole("figure", { name: "Capital released and settled (USD)" });
      await figure.waitFor();
      await figure.locator(".recharts-area").first().waitFor();
      const released = new Intl.NumberFormat("en-US", {
        style: "currency",
        currency: "USD",
        maximumFractionDigits: 0,
      }).format(usd?.points.at(-1)?.released ?? 0);
      await expect(figure.getByText(`${released} released`).isVisible()).resolves.toBe(true);
      await page.getByRole("figure", { name: "Milestones by status" }).waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(viewport.width);
      await screenshot(page, `reports-charts-${name}`);

      await figure.getByRole("button", { name: "Show table" }).click();
      const rows = figure.getByRole("row");
      await expect(rows.count()).resolves.toBe(13); // a header and twelve months
      await expect(figure.getByRole("cell", { name: released }).first().isVisible()).resolves.toBe(true);
      await context.close();
    });
  }

  it("an admin sees verification turnaround on /verifiers; a verifier sees no charts on /reports", async () => {
    const admin = await suite.page(DESKTOP);
    await signIn(admin.page, DEMO.admin);
    await admin.page.goto("/verifiers");
    const figure = admin.page.getByRole("figure", { name: "Verification turnaround" });
    await figure.waitFor();
    await figure.getByText(/decisions; \d+% within 7 days/).waitFor();
    await screenshot(admin.page, "verifiers-turnaround-desktop");
    await admin.context.close();

    const verifier = await suite.page(DESKTOP);
    await signIn(verifier.page, DEMO.verifier);
    await verifier.page.goto("/reports");
    await verifier.page.getByRole("heading", { name: "Reports" }).waitFor();
    await expect(verifier.page.getByRole("figure").count()).resolves.toBe(0);
    await verifier.context.close();
  });
});
