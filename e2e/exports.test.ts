// Export CSV on the list pages: the download carries the list's current filter and the rows it shows.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO, DESKTOP, PHONE, screenshot, signIn, useBrowserSuite } from "./support/app";

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

describe("Export CSV", () => {
  it("on /projects downloads the projects of the chosen status tab", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    await page.goto("/projects");
    await page.getByRole("heading", { level: 1, name: "Projects" }).waitFor();
    const all = await downloadCsv(page);
    expect(all.name).toMatch(/^projects-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(all.lines[0]).toBe(
      "id,name,status,currency,total_capital,released,remaining,milestones,start_date,end_date,location,created_at",
    );
    expect(all.lines.length - 1).toBeGreaterThan(0);

    await page.getByRole("tab", { name: "At Risk" }).click();
    const link = page.getByRole("link", { name: "Export CSV" });
    await expect.poll(() => link.getAttribute("href")).toBe("/api/projects/export.csv?status=at_risk");
    const atRisk = await downloadCsv(page);
    expect(atRisk.lines.slice(1).every((line) => line.split(",")[2] === "at_risk")).toBe(true);
    expect(atRisk.lines.length).toBeLessThanOrEqual(all.lines.length);
    await screenshot(page, "export-projects-desktop", { fullPage: false });
    await context.close();
  });

  it("on /milestones downloads the milestones of the chosen status, and fits a phone", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.owner);
    await page.goto("/milestones");
    await page.getByRole("heading", { level: 1, name: "Milestones" }).waitFor();
    await page.getByRole("tab", { name: "Verified" }).click();
    await expect
      .poll(() => page.getByRole("link", { name: "Export CSV" }).getAttribute("href"))
      .toBe("/api/milestones/export.csv?status=verified");
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

  it("on a project's Finances tab downloads that project's releases", async () => {
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
    expect(await link.getAttribute("href")).toBe(`/api/releases/export.csv?projectId=${mojave?.id}`);
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
