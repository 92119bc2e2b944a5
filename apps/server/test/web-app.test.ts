// The built web app as the server sends it: prerendered public pages, precompressed files, the app shell for
// client routes (a 404 where the router has none), robots.txt and sitemap.xml. Needs `npm run build` first (npm
// test runs it).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_PAGES } from "../../../e2e/support/public-pages";
import { createTestApp, type TestApp } from "./harness";

const webDist = fileURLToPath(new URL("../../web/dist", import.meta.url));
const PUBLIC_URL = "https://tranche.example";

let t: TestApp;
beforeAll(async () => {
  if (!existsSync(path.join(webDist, "app.html"))) throw new Error("build the web app first (npm test does)");
  t = await createTestApp({ PUBLIC_URL });
});
afterAll(() => t?.close());

const get = (url: string, acceptEncoding = "br, gzip") =>
  t.app.request(url, { headers: { "accept-encoding": acceptEncoding } });

async function decoded(res: Response): Promise<string> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const encoding = res.headers.get("content-encoding");
  if (encoding === "br") return brotliDecompressSync(bytes).toString("utf8");
  if (encoding === "gzip") return gunzipSync(bytes).toString("utf8");
  return bytes.toString("utf8");
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;");
const prerenderedPages = PUBLIC_PAGES.filter(([pagePath]) => !pagePath.includes("/verify/"));

describe("prerendered public pages", () => {
  for (const [pagePath, heading] of prerenderedPages) {
    it(`${pagePath} answers its prerendered HTML, heading included, brotli-compressed`, async () => {
      const res = await get(pagePath);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("content-encoding")).toBe("br");
      expect(res.headers.get("vary")).toContain("Accept-Encoding");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const html = await decoded(res);
      expect(html).toMatch(/<div id="root"><div[^>]*>/);
      expect(html).toContain(`>${escapeHtml(heading)}</h1>`);
      // The browser adopts this markup: no inline script is needed to show it (the CSP forbids them anyway).
      expect(html.match(/<script/g)).toHaveLength(1);
    });
  }

  it("falls back to gzip, then to plain HTML, saying so in Vary", async () => {
    const gz = await get("/pricing", "gzip, deflate");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(await decoded(gz)).toContain("Priced per platform, not per dollar released</h1>");
    const plain = await get("/pricing", "identity");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toContain("Accept-Encoding");
    expect(await plain.text()).toContain("Priced per platform, not per dollar released</h1>");
  });

  // The router's pages, signed out and signed in (apps/web/src/app/router.tsx), as a person's address bar has them.
  const ID = "5f0c2a0e-8a4b-4c1d-9e2f-3a4b5c6d7e8f";
  const APP_ROUTES = [
    "/dashboard",
    "/dashboard/",
    "/DASHBOARD",
    `/projects/${ID}`,
    "/projects/abc?tab=team",
    `/milestones/${ID}`,
    "/field",
    `/field/milestones/${ID}`,
    "/settings#webhooks",
    "/login",
    "/signup",
    "/invite?token=abc",
    "/forgot-password",
    "/reset-password?token=abc",
    "/verify-email?token=abc",
    `/verify/${ID}`,
  ];
  // Nothing the router knows: it shows its Not Found page there.
  const UNKNOWN = [
    "/no-such-page",
    "/pricingg",
    "/sign-up",
    "/projects/a/b/c",
    "/dashboard/extra",
    "/field/milestones",
    "/no-such-page?tab=team",
    "/.vite/manifest.json",
  ];

  it("serves the empty app shell, 200, at every route of the router's that is not prerendered, signed in or out", async () => {
    const owner = await t.user("project_owner");
    for (const cookie of [undefined, owner.cookie]) {
      for (const url of APP_ROUTES) {
        const res = await t.app.request(url, { headers: { "accept-encoding": "br", ...(cookie ? { cookie } : {}) } });
        expect(res.status, url).toBe(200);
        // Per person (it says who is signed in): never stored by a cache.
        expect(res.headers.get("cache-control"), url).toBe("private, no-store");
        const html = await decoded(res);
        expect(html, url).toContain('<div id="root"></div>');
        expect(html, url).not.toContain("<h1");
      }
    }
  });

  it("answers 404 with the same shell where no route matches, so the app still shows its Not Found page", async () => {
    const owner = await t.user("project_owner");
    for (const cookie of [undefined, owner.cookie]) {
      for (const url of UNKNOWN) {
        const res = await t.app.request(url, { headers: { "accept-encoding": "br", ...(cookie ? { cookie } : {}) } });
        expect(res.status, url).toBe(404);
        expect(res.headers.get("content-type"), url).toMatch(/^text\/html/);
        expect(res.headers.get("cache-control"), url).toBe("private, no-store");
        const html = await decoded(res);
        expect(html, url).toContain('<div id="root"></div>');
        // The session is there for the app as on any page; the build's bookkeeping and a page's chunks are not.
        expect(html, url).toContain(`"user":${cookie ? '{"id"' : "null"}`);
        expect(html, url).not.toContain('rel="modulepreload" crossorigin href="/assets/dashboard-');
        expect(html, url).not.toContain('"file"');
      }
    }
  });

  it("keeps 404 JSON for an unknown API path and 200 for a prerendered page and the sitemap", async () => {
    const api = await get("/api/no-such-thing");
    expect(api.status).toBe(404);
    expect(api.headers.get("content-type")).toMatch(/^application\/json/);
    for (const url of ["/", "/pricing", "/pricing/", "/verify", "/pricing?ref=ad", "/sitemap.xml", "/robots.txt"])
      expect((await get(url)).status, url).toBe(200);
  });

  it("lists every route of the router in the build's route list, each prerendered and each signed-in page among them", () => {
    const list = (name: string) => JSON.parse(readFileSync(path.join(webDist, ".vite", name), "utf8"));
    const routes = list("routes.json") as string[];
    expect(routes).toEqual(expect.arrayContaining(["/", "/login", "/invite", "/verify/:milestoneId", "/field"]));
    expect(routes).toEqual(expect.arrayContaining(list("prerendered.json")));
    expect(routes).toEqual(expect.arrayContaining(list("page-chunks.json").map((page: { path: string }) => page.path)));
    expect(routes.some((route) => route.includes("*"))).toBe(false);
  });

  it("names a signed-in page's own chunks in its shell, so they load with the entry script; none signed out", async () => {
    const pages = JSON.parse(readFileSync(path.join(webDist, ".vite/page-chunks.json"), "utf8")) as {
      path: string;
      files: string[];
    }[];
    const detail = pages.find((page) => page.path === "/projects/:projectId")?.files ?? [];
    expect(detail.some((file) => /^assets\/project-detail-.*\.js$/.test(file))).toBe(true);
    for (const file of detail) expect(existsSync(path.join(webDist, file)), file).toBe(true);
    const owner = await t.user("project_owner");
    const signedIn = await decoded(
      await t.app.request("/projects/some-project", { headers: { cookie: owner.cookie, "accept-encoding": "br" } }),
    );
    const links = [...signedIn.matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g)].map((m) => m[1]);
    expect(links).toEqual(expect.arrayContaining(detail));
    const signedOut = await decoded(await get("/projects/some-project"));
    expect(signedOut).not.toContain(detail[0]);
  });

  it("names a signed-in page's first reads as fetch preloads, per role and only for the app's own pages", async () => {
    const reads = async (url: string, cookie?: string) => {
      const html = await decoded(await t.app.request(url, { headers: { ...(cookie ? { cookie } : {}) } }));
      return [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    };
    const investor = await t.user("investor");
    const verifier = await t.user("verifier");
    expect(await reads("/reports", investor.cookie)).toEqual([
      "/api/notifications/unread-count",
      "/api/analytics",
      "/api/reports?sort=newest",
    ]);
    expect(await reads("/reports", verifier.cookie)).toEqual([
      "/api/notifications/unread-count",
      "/api/reports?sort=newest",
    ]);
    // A query string in an attribute is escaped; with filters in the address the page asks for its data itself.
    const admin = await t.user("admin");
    expect(await reads("/users", admin.cookie)).toContain("/api/projects?sort=name&amp;limit=100");
    // Another role's page asks for nothing it would be refused: an investor's /users and /settings read nothing.
    expect(await reads("/users", investor.cookie)).toEqual(["/api/notifications/unread-count"]);
    expect(await reads("/settings", investor.cookie)).toEqual(["/api/notifications/unread-count"]);
    expect(await reads("/projects?status=active", investor.cookie)).toEqual(["/api/notifications/unread-count"]);
    // Each preload is an answer the API gives that user (no 4xx the page would not have asked for).
    for (const path of await reads("/account", investor.cookie)) {
      const res = await t.app.request(path.replaceAll("&amp;", "&"), { headers: { cookie: investor.cookie } });
      expect(res.status, path).toBe(200);
    }
    expect(await reads("/no-such-page", investor.cookie)).toEqual([]);
    expect(await reads("/reports")).toEqual([]);
  });
});

describe("assets", () => {
  const assets = readdirSync(path.join(webDist, "assets"));
  const script = assets.find((file) => /^react-.*\.js$/.test(file)) as string;

  it("sends hashed scripts and styles precompressed, cached for a year, byte for byte the built file", async () => {
    const original = readFileSync(path.join(webDist, "assets", script));
    const br = await get(`/assets/${script}`);
    expect(br.status).toBe(200);
    expect(br.headers.get("content-type")).toMatch(/javascript/);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toContain("Accept-Encoding");
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(Number(br.headers.get("content-length"))).toBe(brBytes.length);
    expect(brBytes.length).toBeLessThan(original.length / 3);
    expect(brotliDecompressSync(brBytes).equals(original)).toBe(true);

    const gz = await get(`/assets/${script}`, "gzip");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(original)).toBe(true);

    const css = assets.find((file) => file.endsWith(".css")) as string;
    const style = await get(`/assets/${css}`);
    expect(style.headers.get("content-type")).toMatch(/^text\/css/);
    expect(style.headers.get("content-encoding")).toBe("br");
  });

  it("sends fonts as they are (woff2 is compressed already) and a missing chunk is a 404, not the app shell", async () => {
    const font = assets.find((file) => file.endsWith(".woff2")) as string;
    const res = await get(`/assets/${font}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("cache-control")).toContain("immutable");
    const missing = await get("/assets/no-such-chunk.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("cache-control")).toBe("no-cache");
  });
});

describe("robots.txt and sitemap.xml", () => {
  it("robots.txt allows the site, keeps crawlers off the API and points at the sitemap under PUBLIC_URL", async () => {
    const res = await get("/robots.txt", "");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain("User-agent: *\nAllow: /\nDisallow: /api/\n");
    expect(text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it("sitemap.xml lists every prerendered public page under PUBLIC_URL, and nothing else", async () => {
    const res = await get("/sitemap.xml", "");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.sort()).toEqual(prerenderedPages.map(([pagePath]) => new URL(pagePath, PUBLIC_URL).href).sort());
  });
});
