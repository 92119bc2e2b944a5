// Export CSV on the list pages: the download carries the list's current filter and the rows it shows.
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { DEMO, DESKTOP, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

async function downloadCsv(page: Page): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  const file = await download.path();
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  return { name: download.suggestedFilename(), lines: text.split("\r\n").filter(Boolean) };
}

/** One CSV line's cells (quoted cells with commas and doubled quotes undone; no line breaks inside). */
function csvCells(line: string): string[] {
  return [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => m[1]?.replace(/""/g, '"') ?? m[2]);
}

/** The milestone rows' amounts (the seventh column). */
function csvAmounts(lines: string[]): number[] {
  return lines.map((line) => Number(csvCells(line)[6]));
}

test.describe("Export CSV", () => {
  test("on /projects downloads the projects of the chosen status tab", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    await page.goto("/projects");
    await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
    const all = await downloadCsv(page);
    expect(all.name).toMatch(/^projects-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(all.lines[0]).toBe(
      "id,name,status,currency,total_capital,released,remaining,milestones,start_date,end_date,location,created_at",
    );
    expect(all.lines.length - 1).toBeGreaterThan(0);

    await page.getByRole("tab", { name: "At Risk" }).click();
    const link = page.getByRole("link", { name: "Export CSV" });
    await expect(link).toHaveAttribute("href", "/api/projects/export.csv?status=at_risk&sort=newest");
    const atRisk = await downloadCsv(page);
    expect(atRisk.lines.slice(1).every((line) => line.split(",")[2] === "at_risk")).toBe(true);
    expect(atRisk.lines.length).toBeLessThanOrEqual(all.lines.length);
    await screenshot(page, "export-projects-desktop", { fullPage: false });
    await context.close();
  });

  test("downloads the rows in the order the list shows them, for the sort chosen", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    await page.goto("/projects");
    await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
    const panel = page.getByRole("tabpanel");
    const cards = panel.getByRole("heading", { level: 3 });
    for (const [label, sort] of [
      ["Name (A–Z)", "name"],
      ["Next milestone due", "next_due"],
    ] as const) {
      await page.getByLabel("Sort").selectOption({ label });
      await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
        "href",
        `/api/projects/export.csv?sort=${sort}`,
      );
      await expect(page).toHaveURL(new RegExp(`sort=${sort}`));
      await expect(cards.first()).toBeVisible();
      const shown = await cards.allTextContents();
      const { lines } = await downloadCsv(page);
      expect(
        lines.slice(1, shown.length + 1).map((line) => csvCells(line)[1]),
        sort,
      ).toEqual(shown);
    }

    await page.goto("/milestones?sort=amount");
    await expect(page.getByRole("heading", { level: 1, name: "Milestones" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/milestones/export.csv?sort=amount",
    );
    const amounts = csvAmounts((await downloadCsv(page)).lines.slice(1));
    expect(amounts.length).toBeGreaterThan(1);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    await context.close();
  });

  test("on /milestones downloads the milestones of the chosen status, and fits a phone", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    await page.goto("/milestones");
    await expect(page.getByRole("heading", { level: 1, name: "Milestones" })).toBeVisible();
    await page.getByRole("tab", { name: "Verified" }).click();
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/milestones/export.csv?status=verified&sort=due",
    );
    const verified = await downloadCsv(page);
    expect(verified.lines[0]).toBe(
      "id,project_id,project,title,status,currency,amount,due_date,verifier,verification_date,created_at",
    );
    expect(verified.lines.length).toBeGreaterThan(1);
    expect(verified.lines.slice(1).every((line) => line.includes(",verified,"))).toBe(true);
    const box = await page.getByRole("link", { name: "Export CSV" }).boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "export-milestones-phone", { fullPage: false });
    await context.close();
  });

  test("on a project's Finances tab downloads that project's releases", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    const projects = (await (await page.request.get("/api/projects")).json()) as
      | { id: string; name: string }[]
      | { items: { id: string; name: string }[] };
    const list = Array.isArray(projects) ? projects : projects.items;
    const mojave = list.find((p) => p.name === "Mojave Solar Farm Phase II");
    await page.goto(`/projects/${mojave?.id}`);
    await page.getByRole("tab", { name: "Finances" }).click();
    const link = page.getByRole("link", { name: "Export CSV" });
    await expect(link).toHaveAttribute("href", `/api/releases/export.csv?projectId=${mojave?.id}`);
    const releases = await downloadCsv(page);
    expect(releases.name).toMatch(/^releases-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(releases.lines[0]).toBe(
      "id,instruction_id,status,currency,amount,project,milestone,approved_at,settlement_reference,settled_at,failure_reason,cancellation_reason",
    );
    expect(releases.lines.length).toBeGreaterThan(1);
    expect(releases.lines.slice(1).every((line) => line.includes(",Mojave Solar Farm Phase II,"))).toBe(true);
    await context.close();
  });
});
