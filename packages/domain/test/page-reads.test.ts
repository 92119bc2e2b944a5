import { describe, expect, it } from "vitest";
import { matchPagePattern, pageReads } from "../src/index";

describe("a signed-in page's first reads", () => {
  it("matches a page by its pattern, a :param standing for one segment", () => {
    const patterns = ["/projects", "/projects/:projectId"];
    expect(matchPagePattern(patterns, "/projects/")).toBe("/projects");
    expect(matchPagePattern(patterns, "/projects/p-1")).toBe("/projects/:projectId");
    expect(matchPagePattern(patterns, "/projects/p-1/milestones")).toBeUndefined();
    expect(matchPagePattern(["/", ...patterns], "/")).toBe("/");
    expect(matchPagePattern(patterns, "/")).toBeUndefined();
  });

  it("reads the header's unread count on every app page, and each page's default view by role", () => {
    expect(pageReads("/dashboard", "", "verifier")).toEqual([
      "/notifications/unread-count",
      "/dashboard",
      "/verifications",
    ]);
    expect(pageReads("/dashboard", "", "investor")).toEqual(["/notifications/unread-count", "/dashboard"]);
    expect(pageReads("/verifiers", "", "admin")).toContain("/analytics");
    expect(pageReads("/verifiers", "", "investor")).not.toContain("/analytics");
    // A page whose reads depend on its address (a project's id) starts them itself.
    expect(pageReads("/projects/p-1", "", "investor")).toEqual(["/notifications/unread-count"]);
  });

  it("asks for nothing another role's page would be refused (admins' settings and users, verifiers' queue, the directory)", () => {
    expect(pageReads("/settings", "", "admin")).toContain("/api-tokens");
    expect(pageReads("/users", "", "admin")).toContain("/invitations");
    expect(pageReads("/verifications", "", "verifier")).toContain("/verifications");
    for (const role of ["investor", "project_owner", "verifier"] as const) {
      expect(pageReads("/settings", "", role)).toEqual(["/notifications/unread-count"]);
      expect(pageReads("/users", "", role)).toEqual(["/notifications/unread-count"]);
    }
    for (const role of ["investor", "project_owner", "admin"] as const) {
      expect(pageReads("/verifications", "", role)).toEqual(["/notifications/unread-count"]);
    }
    for (const role of ["project_owner", "verifier"] as const) {
      expect(pageReads("/verifiers", "", role)).toEqual(["/notifications/unread-count"]);
    }
  });

  it("leaves a filtered view's reads to the page, and the field view has no header to count for", () => {
    expect(pageReads("/projects", "?status=active", "investor")).toEqual(["/notifications/unread-count"]);
    expect(pageReads("/field", "", "verifier")).toEqual([]);
  });
});
