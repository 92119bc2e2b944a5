// Release rules in the browser, end to end: the lead investor sets a 2-of-2 policy with a countersignature on
// the project's Finances tab; two verifiers approve; the investor countersigns; the release is instructed. And a
// dispute: the owner disputes a rejection, an admin assigns a different verifier, whose approval closes it.
import { expect, type Page, test } from "@playwright/test";
import { DEMO, expectToast, PHONE, screenshot, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();
const PROJECT = "Aire Valley Water Treatment Upgrade";
const MILESTONE = "Membrane units procured";

async function ids(page: Page): Promise<{ projectId: string; milestoneId: string }> {
  const { items: projects } = await (await page.request.get("/api/projects?limit=100")).json();
  const project = projects.find((p: { name: string }) => p.name === PROJECT);
  const res = await page.request.get(`/api/projects/${project.id}`);
  expect(res.status(), await res.text()).toBe(200);
  const detail = await res.json();
  const milestone = detail.milestones.find((m: { title: string }) => m.title === MILESTONE);
  return { projectId: project.id, milestoneId: milestone.id };
}

/** A verifier opens the milestone, starts it if nobody has, and approves it in the verification dialog. */
async function approveAs(email: string, milestoneId: string, expected: string) {
  const { context, page } = await suite.page();
  await signIn(page, email);
  await page.goto(`/milestones/${milestoneId}`);
  const dialog = page.getByRole("dialog");
  const start = page.getByRole("button", { name: "Start Verification" });
  const next = page.getByRole("button", { name: "Continue Verification" });
  await expect(start.or(next)).toBeVisible();
  if (await start.isVisible()) {
    await start.click();
    await dialog.getByRole("button", { name: "Start Verification Process" }).click();
    await expectToast(page, "Verification started");
  } else {
    await next.click();
  }
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expectToast(page, expected);
  return { context, page };
}

test.describe("release rules", () => {
  test("a 2-of-2 policy with a countersignature: two verifiers, then the investor, then the release", async () => {
    // An admin assigns a second verifier (Vera) beside Theo: a policy of 2 approvals needs two to be reachable.
    const investor = await suite.page();
    await signIn(investor.page, DEMO.investor);
    const { projectId, milestoneId } = await ids(investor.page);
    const admin = await suite.page();
    await signIn(admin.page, DEMO.admin);
    const { items: verifiers } = await (await admin.page.request.get("/api/verifiers?limit=100")).json();
    const vera = verifiers.find((v: { email: string }) => v.email === DEMO.verifier);
    const assigned = await admin.page.request.post(`/api/projects/${projectId}/members`, {
      data: { userId: vera.id, role: "verifier" },
    });
    expect(assigned.status()).toBe(201);
    await admin.context.close();

    // The lead investor sets the policy on the Finances tab; the overview states it in one sentence.
    await investor.page.goto(`/projects/${projectId}`);
    await investor.page.getByRole("tab", { name: "Finances" }).click();
    await investor.page.getByRole("button", { name: "Edit policy" }).click();
    await investor.page.getByLabel("Approvals required").selectOption("2");
    await investor.page.getByLabel(/Investor countersign above/).fill("1000000");
    await screenshot(investor.page, "release-policy-editor-desktop");
    await investor.page.getByRole("button", { name: "Save policy" }).click();
    await expectToast(investor.page, "Release policy saved");
    await investor.page.reload();
    await expect(
      investor.page.getByText("2 of 2 assigned verifiers; investor countersign above £1,000,000", { exact: false }),
    ).toBeVisible();
    await screenshot(investor.page, "release-policy-overview-desktop");

    // Two verifiers approve; the first approval is recorded, the second completes the quorum.
    const theo = await approveAs("theo.park@tranche.demo", milestoneId, "Approval recorded");
    await theo.page.keyboard.press("Escape");
    await theo.page.getByRole("tab", { name: "Verification" }).click();
    await expect(theo.page.getByRole("heading", { name: "1 of 2 approvals" })).toBeVisible();
    await theo.context.close();

    // The owner adds a file after that approval: told first that it voids the decision made on the files before it,
    // and it does. Theo looks again and approves again.
    const owner = await suite.page();
    await signIn(owner.page, DEMO.owner);
    await owner.page.goto(`/milestones/${milestoneId}`);
    await owner.page.getByRole("tab", { name: "Evidence" }).click();
    await expect(
      owner.page.getByText("1 decision was made in this round on the evidence as it stands; a file added now voids it"),
    ).toBeVisible();
    await screenshot(owner.page, "evidence-upload-voids-decisions-desktop");
    await owner.page.getByLabel("Upload Evidence").setInputFiles({
      name: "lien-waiver.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.from("%PDF-1.4 lien waiver for the membrane units"),
    });
    await expectToast(owner.page, "Files uploaded");
    await expect(owner.page.getByText("1 decision was made in this round")).not.toBeAttached();
    await owner.context.close();
    const theoAgain = await suite.page();
    await signIn(theoAgain.page, "theo.park@tranche.demo");
    await theoAgain.page.goto(`/milestones/${milestoneId}`);
    await theoAgain.page.getByRole("tab", { name: "Verification" }).click();
    await expect(theoAgain.page.getByRole("heading", { name: "0 of 2 approvals" })).toBeVisible();
    await expect(theoAgain.page.getByText("Void: evidence changed")).toBeVisible();
    const history = theoAgain.page.getByRole("list", { name: "Milestone history" });
    await expect(history.getByText("Decisions voided: the evidence changed")).toBeVisible();
    await expect(history.getByText("Added lien-waiver.pdf")).toBeVisible();
    await theoAgain.context.close();
    await (await approveAs("theo.park@tranche.demo", milestoneId, "Approval recorded")).context.close();
    const vera2 = await approveAs(DEMO.verifier, milestoneId, "Approval recorded");
    await vera2.context.close();

    // What waits on the investor is on their dashboard: the release to countersign, under Action Required.
    await investor.page.goto("/dashboard");
    await expect(investor.page.getByText("Review release to countersign", { exact: false })).toBeVisible();
    await screenshot(investor.page, "release-countersign-dashboard-desktop");

    // The investor sees who approved and when, and countersigns: the release is created.
    await investor.page.goto(`/milestones/${milestoneId}`);
    await investor.page.getByRole("tab", { name: "Verification" }).click();
    const approvals = investor.page.getByRole("region", { name: "Approvals" });
    await expect(approvals.getByRole("heading", { name: "2 of 2 approvals" })).toBeVisible();
    // Theo's first approval, voided by the owner's file, and the one he gave after it.
    await expect(approvals.getByText("by Theo Park")).toHaveCount(2);
    await expect(approvals.getByText("by Vera Lindqvist (Meridian Assurance)")).toBeVisible();
    await screenshot(investor.page, "release-countersign-desktop");
    // Countersigning moves money: it asks first, naming the amount; Cancel releases nothing.
    await approvals.getByRole("button", { name: "Countersign release" }).click();
    const confirm = investor.page.getByRole("alertdialog");
    await expect(confirm.getByText(`Release £1,750,000 for "${MILESTONE}"?`)).toBeVisible();
    await screenshot(investor.page, "release-countersign-confirm-desktop", { fullPage: false });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).not.toBeAttached();
    expect((await (await investor.page.request.get(`/api/milestones/${milestoneId}`)).json()).status).toBe(
      "in_verification",
    );
    await approvals.getByRole("button", { name: "Countersign release" }).click();
    await confirm.getByRole("button", { name: /^Countersign and release £/ }).click();
    await expectToast(investor.page, "Release countersigned");
    await expect(approvals.getByText("Countersigned")).toBeVisible();
    await screenshot(investor.page, "release-countersigned-desktop");
    await investor.page.getByRole("tab", { name: "Overview" }).click();
    await expect(investor.page.getByRole("heading", { name: "Capital Release" })).toBeVisible();

    const released = await (await investor.page.request.get(`/api/milestones/${milestoneId}`)).json();
    expect(released.status).toBe("verified");
    await investor.context.close();

    // The same page at phone width.
    const phone = await suite.page(PHONE);
    await signIn(phone.page, DEMO.investor);
    await phone.page.goto(`/milestones/${milestoneId}`);
    await phone.page.getByRole("tab", { name: "Verification" }).click();
    await expect(phone.page.getByRole("region", { name: "Approvals" })).toBeVisible();
    await screenshot(phone.page, "release-approvals-phone");
    await phone.page.goto(`/projects/${projectId}`);
    await phone.page.getByRole("tab", { name: "Finances" }).click();
    await phone.page.getByRole("button", { name: "Edit policy" }).click();
    await screenshot(phone.page, "release-policy-editor-phone");
    await expect
      .poll(() =>
        phone.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      )
      .toBe(true);
    await phone.context.close();
  });

  test("a dispute: the owner disputes a rejection, an admin assigns another verifier, whose approval closes it", async () => {
    const owner = await suite.page();
    await signIn(owner.page, DEMO.owner);
    const { items: projects } = await (await owner.page.request.get("/api/projects?limit=100")).json();
    const harbor = projects.find((p: { name: string }) => p.name === "Harbor District Affordable Housing");
    const detail = await (await owner.page.request.get(`/api/projects/${harbor.id}`)).json();
    const rejected = detail.milestones.find((m: { title: string }) => m.title === "Structural frame, block A");

    await owner.page.goto(`/milestones/${rejected.id}`);
    await owner.page.getByRole("tab", { name: "Verification" }).click();
    const dispute = owner.page.getByRole("region", { name: "Dispute" });
    await dispute.getByRole("button", { name: "Dispute" }).click();
    await dispute.getByRole("button", { name: "Submit dispute" }).click();
    await expect(dispute.getByText("at least 10 characters", { exact: false })).toBeVisible();
    await dispute
      .getByLabel("Statement")
      .fill("The fire-safety certificate for floors 4 to 6 was uploaded on the 3rd; please review it again.");
    await dispute.getByRole("button", { name: "Submit dispute" }).click();
    await expectToast(owner.page, "Dispute opened");
    await expect(dispute.getByText("Waiting for an admin to assign a different verifier.")).toBeVisible();
    await screenshot(owner.page, "dispute-opened-desktop");

    // An admin adds Theo to the project and assigns him: Vera rejected, so she is not offered.
    const admin = await suite.page();
    await signIn(admin.page, DEMO.admin);
    const { items: verifiers } = await (await admin.page.request.get("/api/verifiers?limit=100")).json();
    const theo = verifiers.find((v: { email: string }) => v.email === "theo.park@tranche.demo");
    const added = await admin.page.request.post(`/api/projects/${harbor.id}/members`, {
      data: { userId: theo.id, role: "verifier" },
    });
    expect(added.status()).toBe(201);
    await admin.page.goto(`/milestones/${rejected.id}`);
    await admin.page.getByRole("tab", { name: "Verification" }).click();
    const review = admin.page.getByRole("region", { name: "Dispute" });
    await expect(review.getByText("The fire-safety certificate for floors 4 to 6 was uploaded")).toBeVisible();
    const choice = review.getByLabel("Reviewing verifier");
    await expect(choice).toBeVisible();
    await expect(choice.locator("option")).toHaveText(["Choose a verifier", "Theo Park"]);
    await choice.selectOption({ label: "Theo Park" });
    await review.getByRole("button", { name: "Assign verifier" }).click();
    await expectToast(admin.page, "Verifier assigned");
    await expect(review.getByText("Reviewing verifier: Theo Park", { exact: false })).toBeVisible();
    await screenshot(admin.page, "dispute-assigned-desktop");
    await admin.context.close();

    // Theo approves alone; the dispute closes and the owner sees how.
    const reviewer = await approveAs("theo.park@tranche.demo", rejected.id, "Milestone verified");
    await reviewer.context.close();
    await owner.page.reload();
    await owner.page.getByRole("tab", { name: "Verification" }).click();
    await expect(dispute.getByText("Closed: approved on review")).toBeVisible();
    await owner.context.close();

    const phone = await suite.page(PHONE);
    await signIn(phone.page, DEMO.owner);
    await phone.page.goto(`/milestones/${rejected.id}`);
    await phone.page.getByRole("tab", { name: "Verification" }).click();
    await expect(phone.page.getByRole("region", { name: "Dispute" })).toBeVisible();
    await screenshot(phone.page, "dispute-closed-phone");
    await phone.context.close();
  });
});
