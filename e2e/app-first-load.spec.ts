// A signed-in page's first load (docs/decisions/017): the shell says who is signed in, and the page's data is asked
// for once, while its code loads, not after a session round trip.
import { expect, test } from "@playwright/test";
import { DEMO, DESKTOP, signIn } from "./support/app";
import { useBrowserSuite } from "./support/suite";

const suite = useBrowserSuite();

test.describe("first load of a signed-in page", () => {
  test("carries the session in the page, private to the person", async () => {
    const { context, page } = await suite.page(DESKTOP);
    const signedOut = await page.request.get("/projects");
    expect(await signedOut.text()).toContain(
      '<script type="application/json" id="session-data">{"user":null}</script>',
    );
    await signIn(page, DEMO.investor);
    const res = await page.request.get("/projects");
    expect(res.headers()["cache-control"]).toBe("private, no-store");
    const block = (await res.text()).match(/id="session-data">(.*?)<\/script>/)?.[1] ?? "";
    expect(JSON.parse(block).user).toMatchObject({ email: DEMO.investor, role: "investor" });
    // Public pages stay static and shared.
    expect(await (await page.request.get("/pricing")).text()).not.toContain("session-data");
    await context.close();
  });

  test("asks for no session and each read once, and goes to sign-in when signed out", async () => {
    const { context, page } = await suite.page(DESKTOP);
    await signIn(page, DEMO.investor);
    const asked: string[] = [];
    page.on("request", (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith("/api/") && url.pathname !== "/api/events")
        asked.push(`${url.pathname}${url.search}`);
    });
    await page.goto("/projects");
    await expect(page.getByRole("heading", { name: "Projects", exact: true })).toBeVisible();
    await expect(page.getByText("Mojave Solar Farm Phase II").first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(asked).not.toContain("/api/auth/session");
    expect(asked.filter((path) => path === "/api/projects?sort=newest")).toHaveLength(1);
    expect(asked.filter((path) => path === "/api/projects/counts")).toHaveLength(1);

    await context.clearCookies();
    await page.goto("/milestones");
    await page.waitForURL(/\/login\?next=%2Fmilestones$/);
    await context.close();
  });
});
