// The public site claims only what was measured: every percentage on /ai-verification and /roadmap must be a figure
// of the committed evidence-checks bench result (bench/results/evidence-checks.json), and the date the page gives
// must be that run's. Re-running the bench without updating the page (or the other way round) fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");
const PAGES = ["apps/web/src/app/routes/public/ai-verification.tsx", "apps/web/src/app/routes/public/roadmap.tsx"];

/** Every rate of the result (a number from 0 to 1 under a key that is not a count), as the percentages it may be shown as. */
function measuredPercentages(result: unknown): Set<string> {
  const shown = new Set<string>();
  const visit = (value: unknown, key: string) => {
    if (typeof value === "number" && value >= 0 && value <= 1 && !/seconds|files|fieldsRead|mean|p95|max/i.test(key)) {
      const percent = value * 100;
      shown.add(percent.toFixed(1).replace(/\.0$/, ""));
      shown.add(percent.toFixed(0));
    } else if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) visit(v, `${key}.${k}`);
    }
  };
  visit(result, "");
  return shown;
}

describe("public claims", () => {
  const result = JSON.parse(read("bench/results/evidence-checks.json"));
  const allowed = measuredPercentages(result);

  it.each(PAGES)("%s states no percentage the evidence bench did not measure", (page) => {
    const source = read(page);
    const figures = [...source.matchAll(/(\d+(?:\.\d+)?)\s?%/g)].map((m) => m[1]);
    const unmeasured = figures.filter((figure) => !allowed.has(figure));
    expect(unmeasured, `measured: ${[...allowed].join(", ")}`).toEqual([]);
  });

  it("gives the date of the committed bench run, from the full corpus", () => {
    expect(result.slice).toBe(false);
    const page = read(PAGES[0]);
    expect(page).toContain(`MEASURED_ON = "${result.measuredAt.slice(0, 10)}"`);
    expect(page).toContain(`${result.files} files`);
  });

  it("calls smart contract disbursements what they are: roadmap", () => {
    const page = read(PAGES[0]);
    expect(page).toContain("On the roadmap, not built yet");
    expect(page).not.toMatch(/smart contract disbursements are included/i);
    expect(read("apps/web/src/app/routes/public/roadmap.tsx")).toMatch(/Planned[\s\S]*Smart contract disbursements/);
  });
});

describe("what the public pages promise is what the product does", () => {
  const page = (name: string) => read(`apps/web/src/app/routes/public/${name}.tsx`);

  it("counts releases per milestone and verification round, as the database's unique index does", () => {
    // A partial release closes its round: a milestone may be paid in several releases, one per round (ADR 004).
    expect(read("apps/server/drizzle/0009_release_rules.sql")).toMatch(
      /UNIQUE INDEX "disbursements_milestone_key" ON "disbursements" \("milestone_id", "round"\)/,
    );
    for (const name of ["home", "roadmap", "features", "demo"]) {
      expect(page(name), name).not.toMatch(/unique per milestone|One release record per verified milestone/i);
    }
    expect(page("home")).toMatch(/one release per milestone and verification round/);
    expect(page("roadmap")).toMatch(/One release per milestone and verification round/);
  });

  it("promises the custodian the channel that reaches it: signed webhooks, retried for 24 hours", () => {
    // Emails go to people with an account (services/email); the custodian is told by webhook, delivered at least
    // once under one webhook-id, and an endpoint failing for 24 hours is disabled.
    for (const name of ["pricing", "ai-verification", "home", "partners"]) {
      expect(page(name), name).not.toMatch(/e-?mail to your custodian|webhook and an e-?mail/i);
    }
    expect(page("roadmap")).not.toMatch(/retried until received/);
    expect(page("roadmap")).toMatch(/retried for 24 hours/);
  });

  it("offers single sign-on only as what it is: planned", () => {
    for (const name of ["enterprise", "pricing", "home"]) {
      expect(page(name), name).not.toMatch(/SAML|OpenID Connect|Single sign-on and your own|with single sign-on/);
    }
    expect(page("enterprise")).toMatch(/Single sign-on[\s\S]*on the roadmap/i);
    expect(page("roadmap")).toMatch(/Planned[\s\S]*Single sign-on/);
  });

  it("says how often the field app asks for the fingerprint: within 12 hours, as the server requires", () => {
    const source = page("verifier-app");
    expect(source).not.toMatch(/confirmation for every approve|confirm each decision|unlocked phone is not enough/i);
    expect(source).toMatch(/12 hours/);
  });

  it("lists the exact-reuse check the checker runs, for any file and not only photos", () => {
    // cross-check.ts `reusedFileFlag`: the same SHA-256 on another milestone, whatever the file's type.
    expect(read("apps/server/src/services/evidence-checks/cross-check.ts")).toMatch(/code: "reused_file"/);
    expect(page("ai-verification")).toMatch(/any file submitted before to another milestone byte\s+for byte/);
  });

  it("gives no outcome figure on the investors' page that nothing measured", () => {
    const source = page("institutional-partners");
    expect(source).not.toMatch(/\d+\s?%|on average|since adoption|\d+ weeks/);
  });
});
