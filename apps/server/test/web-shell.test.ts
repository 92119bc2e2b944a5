// The app shell carries the signed-in user as a JSON data block (apps/server/src/web-app.ts): nothing in a user's
// own fields (a name they chose) can end the element or run as a script.
import { describe, expect, it } from "vitest";
import { pageChunkMatcher, routeMatcher, shellWithSession } from "../src/web-app";

const SHELL = '<!doctype html><html><head><title>Tranche</title></head><body><div id="root"></div></body></html>';

describe("the app shell's session block", () => {
  it("writes the user before </head> as JSON the page can read back", () => {
    const user = { id: "u1", name: "Ada", email: "ada@example.com", role: "investor" } as never;
    const html = shellWithSession(SHELL, user);
    const block = html.match(/<script type="application\/json" id="session-data">(.*)<\/script><\/head>/)?.[1];
    expect(JSON.parse(block ?? "")).toEqual({ user });
    expect(shellWithSession(SHELL, null)).toContain('id="session-data">{"user":null}</script></head>');
  });

  it("escapes '<' so a name cannot close the element", () => {
    const user = { id: "u1", name: "</script><script>alert(1)</script>", email: "x@example.com" } as never;
    const html = shellWithSession(SHELL, user);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const block = html.match(/id="session-data">(.*)<\/script>/)?.[1] ?? "";
    expect(JSON.parse(block).user.name).toBe("</script><script>alert(1)</script>");
  });
});

describe("the app shell's page chunks", () => {
  const chunksOf = pageChunkMatcher([
    { path: "/projects", files: ["assets/projects-a.js", "assets/list-b.js"] },
    { path: "/projects/:projectId", files: ["assets/project-detail-c.js"] },
  ]);

  it("finds a page by its pattern, a :param standing for one segment", () => {
    expect(chunksOf("/projects")).toEqual(["assets/projects-a.js", "assets/list-b.js"]);
    expect(chunksOf("/projects/")).toEqual(["assets/projects-a.js", "assets/list-b.js"]);
    expect(chunksOf("/projects/p-1")).toEqual(["assets/project-detail-c.js"]);
    expect(chunksOf("/projects/p-1/milestones")).toEqual([]);
    expect(chunksOf("/nowhere")).toEqual([]);
  });

  it("names the page's first reads as fetch preloads, their query strings escaped for the attribute", () => {
    const html = shellWithSession(SHELL, null, [], ["/users?sort=name", "/projects?sort=name&limit=100"]);
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/users?sort=name">');
    expect(html).toContain('<link rel="preload" as="fetch" crossorigin href="/api/projects?sort=name&amp;limit=100">');
  });

  it("names them as modulepreload links before the session block", () => {
    const html = shellWithSession(SHELL, null, ["assets/projects-a.js"]);
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/projects-a.js"><script type="application/json" id="session-data">',
    );
  });
});

describe("the router's routes, for a 404 where it has none", () => {
  const isRoute = routeMatcher(["/", "/login", "/projects", "/projects/:projectId", "/field/milestones/:milestoneId"]);

  it("knows a path by its pattern: a :param is one segment, a trailing slash and case are ignored", () => {
    for (const path of ["/", "/login", "/login/", "/Login", "/projects/p-1", "/projects/p-1/", "/field/milestones/m-1"])
      expect(isRoute(path), path).toBe(true);
    for (const path of ["/logi", "/projects/p-1/extra", "/field/milestones", "/field/milestones/", "/nowhere"])
      expect(isRoute(path), path).toBe(false);
  });

  it("takes every path for a page when the build wrote no list, as before it wrote one", () => {
    expect(routeMatcher(null)("/nowhere")).toBe(true);
  });
});
