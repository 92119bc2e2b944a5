// The page to return to after sign-in is normalised (resolved against the origin) before it is checked, so no path
// that a browser would read as another site gets through.
import { describe, expect, it } from "vitest";
import { safeNextPath } from "../src";

describe("safeNextPath", () => {
  it("refuses what normalises to another origin: dot segments, backslashes, tabs", () => {
    for (const value of [
      "/.//evil.example/phish",
      "/./\\evil.example",
      "/..//evil.example",
      "/a/../..//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "//evil.example",
      "/%2e//evil.example",
    ]) {
      expect(safeNextPath(value), JSON.stringify(value)).toBeNull();
    }
  });

  it("refuses other origins, schemes, relative paths and the sign-in page", () => {
    for (const value of [
      "https://evil.example",
      "javascript:alert(1)",
      "evil.example",
      "",
      null,
      undefined,
      "/login",
      "/./login?x=1",
    ]) {
      expect(safeNextPath(value), String(value)).toBeNull();
    }
  });

  it("keeps a path on this site, normalised, with its query and hash", () => {
    expect(safeNextPath("/milestones/42")).toBe("/milestones/42");
    expect(safeNextPath("/projects?status=at_risk#top")).toBe("/projects?status=at_risk#top");
    expect(safeNextPath("/a/./b/../c")).toBe("/a/c");
    expect(safeNextPath("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });
});
