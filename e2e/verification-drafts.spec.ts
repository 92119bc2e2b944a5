// A verifier's comments survive closing the verification dialog by mistake (Escape, a tap beside it) until the
// decision they were written for is sent; the team's names stay readable beside the admin's actions.
import { expect, test } from "@playwright/test";
import { DEMO, DESKTOP, expectToast, PHONE, signIn, startVerification } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("verification comments", () => {
  for (const [name, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    test(`comments typed before closing the dialog are there when it opens again (${name})`, async () => {
      const title = name === "desktop" ? "Battery storage installation" : "Grid interconnection";
      const { context, page } = await suite.page(viewport);
      await signIn(page, DEMO.verifier);
      const { item, dialog } = await startVerification(page, title);
      const reason = "The commissioning report is not signed by the site engineer.";
      await dialog.getByLabel("Comments").fill(reason);
      await page.keyboard.press("Escape");
      await expect(dialog).not.toBeAttached();

      await item.getByRole("button", { name: "Continue Verification" }).click();
      await expect(dialog.getByLabel("Comments")).toHaveValue(reason);
      await dialog.getByRole("button", { name: "Reject" }).click();
      await expectToast(page, "Milestone rejected");
      await context.close();
    });
  }
});

test("an investor's name is not cut short beside the admin's Make lead and remove buttons", async () => {
  // 1280 px: the three team cards are at their narrowest before they stack.
  const { context, page } = await suite.page({ width: 1280, height: 900 });
  await signIn(page, DEMO.admin);
  const res = await page.request.get("/api/projects");
  const body = (await res.json()) as { id: string; name: string }[] | { items: { id: string; name: string }[] };
  const list = Array.isArray(body) ? body : body.items;
  const mojave = list.find((p) => p.name === "Mojave Solar Farm Phase II");
  await page.goto(`/projects/${mojave?.id}`);
  await page.getByRole("tab", { name: "Team" }).click();
  const name = page.getByTitle("Isabel Moreau", { exact: true });
  await expect(page.getByRole("button", { name: "Remove Isabel Moreau" })).toBeVisible();
  await expect(name).toBeVisible();
  const clipped = await name.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(clipped).toBe(false);
  // The seeded investor leads: the label is whole, not cut to "Lead in…".
  const lead = page.getByText("Lead investor", { exact: true });
  await expect(lead).toBeVisible();
  const cut = await lead.evaluate((el) => {
    const box = el.parentElement?.getBoundingClientRect();
    return box ? el.getBoundingClientRect().right > box.right + 0.5 : true;
  });
  expect(cut).toBe(false);
  await context.close();
});
