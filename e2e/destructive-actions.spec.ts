// Issue 16 "Destructive actions need a confirmation and an outcome": removing an evidence file, removing a team
// member and changing a user's role each ask first, naming what will happen, change nothing on Cancel, and toast
// the outcome after.
import { expect, test } from "@playwright/test";
import { DEMO, DESKTOP, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("destructive actions", () => {
  test("removing an evidence file asks first, naming the file; Cancel keeps it", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.verifier);
    await page.goto("/verifications");
    const item = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Panel and inverter delivery" }) });
    await item.getByRole("button", { name: "Continue Verification" }).click();
    const dialog = page.getByRole("dialog");
    await dialog
      .getByLabel("Upload Evidence")
      .setInputFiles([
        { name: "inverter-serials.csv", mimeType: "text/csv", buffer: Buffer.from("serial\nINV-0001\n") },
      ]);
    await expectToast(page, "1 file(s) uploaded successfully");
    const files = dialog.getByRole("list", { name: "Evidence files" });
    await expect(files.getByText("inverter-serials.csv")).toBeVisible();

    await files.getByRole("button", { name: "Remove inverter-serials.csv" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText("Remove this evidence file?")).toBeVisible();
    await expect(confirm).toContainText('"inverter-serials.csv" (16 B) will be removed');
    await screenshot(page, "confirm-remove-evidence-desktop", { fullPage: false });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).not.toBeAttached();
    await expect(files.getByText("inverter-serials.csv")).toHaveCount(1);

    await files.getByRole("button", { name: "Remove inverter-serials.csv" }).click();
    await confirm.getByRole("button", { name: "Remove file" }).click();
    await expectToast(page, '"inverter-serials.csv" was removed from the evidence.');
    await expect(dialog.getByText("No Evidence Uploaded")).toBeVisible();
    await context.close();
  });

  test("deleting a milestone with evidence says its evidence files go with it", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.owner);
    const milestones = (await (await page.request.get("/api/milestones?status=pending")).json()) as {
      items: { id: string; title: string }[];
    };
    const cooling = milestones.items.find((m) => m.title === "Cooling design approved");
    await page.goto(`/milestones/${cooling?.id}`);
    await page.getByRole("tab", { name: "Evidence" }).click();
    await page.getByLabel("Upload Evidence").setInputFiles([
      { name: "chiller-layout.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 chiller layout") },
      { name: "load-calcs.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 cooling loads") },
    ]);
    await expectToast(page, "2 file(s) uploaded successfully");

    await page.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText("Are you sure you want to delete this milestone?")).toBeVisible();
    await expect(confirm).toContainText(
      "“Cooling design approved”, its capital amount and its 2 evidence files will be removed from the project.",
    );
    await screenshot(page, "confirm-delete-milestone-with-evidence-desktop", { fullPage: false });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).not.toBeAttached();
    await context.close();
  });

  test("removing a team member asks first and says what the member loses", async () => {
    const { context, page } = await suite.page(PHONE);
    await signIn(page, DEMO.admin);
    const projects = (await (await page.request.get("/api/projects")).json()) as
      | { id: string; name: string }[]
      | { items: { id: string; name: string }[] };
    const list = Array.isArray(projects) ? projects : projects.items;
    const aire = list.find((p) => p.name === "Aire Valley Water Treatment Upgrade");
    await page.goto(`/projects/${aire?.id}`);
    await page.getByRole("tab", { name: "Team" }).click();
    await page.getByRole("button", { name: "Remove Isabel Moreau" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText("Remove Isabel Moreau from this project?")).toBeVisible();
    await expect(confirm).toContainText("will no longer oversee Aire Valley");
    await screenshot(page, "confirm-remove-member-phone", { fullPage: false });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("button", { name: "Remove Isabel Moreau" })).toHaveCount(1);

    await page.getByRole("button", { name: "Remove Isabel Moreau" }).click();
    await confirm.getByRole("button", { name: "Remove", exact: true }).click();
    await expectToast(page, "Isabel Moreau is no longer on Aire Valley Water Treatment Upgrade.");
    await expect(page.getByText("No investors assigned")).toBeVisible();
    await context.close();
  });

  test("a role change on /users waits for confirmation; Cancel puts the old role back", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.admin);
    await page.goto("/users");
    const select = page.getByLabel("Role for Sofia Reyes");
    await select.selectOption("investor");
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText("Change Sofia Reyes's role to Investor?")).toBeVisible();
    await expect(confirm).toContainText("Sofia Reyes is currently Verifier.");
    await screenshot(page, "confirm-role-change-desktop", { fullPage: false });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).not.toBeAttached();
    await expect(select).toHaveValue("verifier");
    const unchanged = (await (await page.request.get("/api/users")).json()) as
      | { name: string; role: string }[]
      | { items: { name: string; role: string }[] };
    const users = Array.isArray(unchanged) ? unchanged : unchanged.items;
    expect(users.find((u) => u.name === "Sofia Reyes")?.role).toBe("verifier");

    await select.selectOption("investor");
    await confirm.getByRole("button", { name: "Change role" }).click();
    await expectToast(page, "Sofia Reyes is now Investor.");
    await expect(select).toHaveValue("investor");
    await expect(page.getByText("You cannot change your own role.")).toBeVisible();
    await context.close();
  });

  test("making someone lead investor asks first and names the right handed over; Cancel keeps the lead", async () => {
    const { context, page } = await suite.page(DESKTOP);
    // A second investor on Mojave, so there is someone to make lead.
    const signUp = await fetch(`${suite.app.url}/api/auth/sign-up`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Nadia Okafor", email: "nadia.okafor@example.com", password: "lead-investor-2025" }),
    });
    expect(signUp.status).toBeLessThan(300);
    await signIn(page, DEMO.admin);
    const { items: people } = await (await page.request.get("/api/users?limit=100")).json();
    const nadia = people.find((u: { email: string }) => u.email === "nadia.okafor@example.com");
    expect((await page.request.patch(`/api/users/${nadia.id}`, { data: { role: "investor" } })).status()).toBe(200);
    const { items: projects } = await (await page.request.get("/api/projects?limit=100")).json();
    const mojave = projects.find((p: { name: string }) => p.name === "Mojave Solar Farm Phase II");
    const added = await page.request.post(`/api/projects/${mojave.id}/members`, {
      data: { userId: nadia.id, role: "investor" },
    });
    expect(added.status()).toBe(201);
    const lead = async () =>
      (await (await page.request.get(`/api/projects/${mojave.id}`)).json()).investors.find(
        (m: { isLead: boolean }) => m.isLead,
      )?.name;

    await page.goto(`/projects/${mojave.id}`);
    await page.getByRole("tab", { name: "Team" }).click();
    await page.getByRole("button", { name: "Make lead" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByText("Make Nadia Okafor the lead investor of Mojave Solar Farm Phase II?")).toBeVisible();
    await expect(confirm).toContainText("sets the release policy");
    await expect(confirm).toContainText("Isabel Moreau loses that right.");
    await screenshot(page, "confirm-make-lead-desktop", { fullPage: false });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).not.toBeAttached();
    await expect.poll(lead).toBe("Isabel Moreau");

    await page.getByRole("button", { name: "Make lead" }).click();
    await confirm.getByRole("button", { name: "Make lead investor" }).click();
    await expectToast(page, "Nadia Okafor may now set the release policy.");
    await expect.poll(lead).toBe("Nadia Okafor");
    await context.close();
  });
});
