import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import { matchPagePattern, pageReads, type UserDto } from "@tranche/domain";
import type { Hono } from "hono";
import { resolveSession, sessionToken } from "./auth/sessions";
import type { AppEnv } from "./context";
import { toUserDto } from "./services/users/dto";

const webDist = fileURLToPath(new URL("../../web/dist", import.meta.url));
const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * The built web app (apps/web/scripts/prerender.mjs lays it out): each public page prerendered at its path
 * (dist/<path>/index.html), hashed assets cached for a year, the empty app shell (app.html) for every other
 * client route, and the same shell as a 404 where the router has no route (docs/decisions/038). Files are sent
 * as built: brotli or gzip beside each, chosen by the request's Accept-Encoding.
 */
export function mountWebApp(app: Hono<AppEnv>, publicUrl: string) {
  const shellPath = path.join(webDist, "app.html");
  if (!existsSync(shellPath)) {
    app.get("*", (c) => c.text("The web app is not built. Run `npm run build` (or `npm start`).", 503));
    return;
  }
  const root = path.relative(process.cwd(), webDist) || ".";
  const pages = readBuildList<string[]>("prerendered.json", []);
  const robots = robotsTxt(publicUrl);
  const sitemap = sitemapXml(publicUrl, pages);

  app.get("/robots.txt", (c) => {
    c.header("Cache-Control", "public, max-age=3600");
    return c.text(robots);
  });
  app.get("/sitemap.xml", (c) => {
    c.header("Cache-Control", "public, max-age=3600");
    c.header("Content-Type", "application/xml; charset=utf-8");
    return c.body(sitemap);
  });
  app.use("*", async (c, next) => {
    await next();
    const immutable = c.req.path.startsWith("/assets/") && c.res.status === 200;
    // HTML and the few unhashed files are checked with the server on every use; hashed assets never change.
    if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", immutable ? IMMUTABLE : "no-cache");
    // The same URL is sent brotli, gzip or plain: a cache must key its copies on the encoding asked for.
    if (!c.res.headers.get("Vary")?.includes("Accept-Encoding")) c.header("Vary", "Accept-Encoding", { append: true });
  });
  // The build's own bookkeeping (Vite's manifest, the page list) is not for the public.
  app.use("*", (c, next) =>
    c.req.path.startsWith("/.vite/") ? next() : serveStatic({ root, precompressed: true })(c, next),
  );
  // A chunk that is not there (a page built before a deploy asking for its old chunks) is a 404, not the shell.
  app.get("/assets/*", (c) => c.text("Not found", 404));
  // The shell says who is signed in (docs/decisions/017): the page asks for its data at once, not after a
  // round trip for the session. Per person, so never stored by a cache.
  const shell = readFileSync(shellPath, "utf8");
  const pageChunks = pageChunkMatcher(readBuildList<PageChunks[]>("page-chunks.json", []));
  const isRoute = routeMatcher(readBuildList<string[] | null>("routes.json", null));
  app.get("*", async (c) => {
    const { db, env } = c.get("deps");
    const user = await resolveSession(db, sessionToken(c, env), env);
    c.header("Cache-Control", "private, no-store");
    c.header("Vary", "Cookie", { append: true });
    // Signed in, the page's own chunks and first reads are named too: the browser fetches them with the entry
    // script, not after it has run. Only for the app's pages (a 404 reads nothing).
    const dto = user ? toUserDto(user) : null;
    const chunks = dto ? pageChunks(c.req.path) : [];
    const reads = dto && chunks.length ? pageReads(c.req.path, new URL(c.req.url).search, dto.role) : [];
    // Where the router has no route the shell still comes, so that the app shows its Not Found page, but as a
    // 404: crawlers, monitors and link checkers then see a broken address for what it is.
    return c.html(shellWithSession(shell, dto, chunks, reads), isRoute(c.req.path) ? 200 : 404);
  });
}

/** A list the web app's build writes beside its files (dist/.vite/<name>), or `missing` when it did not. */
function readBuildList<T>(name: string, missing: T): T {
  const file = path.join(webDist, ".vite", name);
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : missing;
}

/** A signed-in page's path pattern and the chunks its first load needs (written by apps/web/vite.config.ts). */
export interface PageChunks {
  path: string;
  files: string[];
}

/** The chunks of the page at `pathname` (its pattern's `:params` match one segment each); none for another path. */
export function pageChunkMatcher(pages: PageChunks[]): (pathname: string) => string[] {
  const files = new Map(pages.map((page) => [page.path, page.files]));
  const patterns = [...files.keys()];
  return (pathname) => files.get(matchPagePattern(patterns, pathname) ?? "") ?? [];
}

/**
 * Whether the router (apps/web/src/app/router.tsx, its patterns listed by the build) has a page at `pathname`:
 * a `:param` matches one segment, a trailing slash is ignored, and so is case, as React Router ignores it (/Pricing
 * shows the pricing page). Whether the record a param names exists is for the page to say. With no list (a build
 * from before the list was written), every path is a page, as it was then.
 */
export function routeMatcher(patterns: string[] | null): (pathname: string) => boolean {
  if (!patterns) return () => true;
  const lower = patterns.map((pattern) => pattern.toLowerCase());
  return (pathname) => matchPagePattern(lower, pathname.toLowerCase()) !== undefined;
}

/**
 * The app shell with `{"user": …}` in a JSON data block before </head> (read by apps/web/src/app/preload-route.ts),
 * the page's chunks as module preloads and its first reads (paths under /api) as fetch preloads, which the app's
 * own early requests then take over (same URL, mode and credentials). A data block is not run, so the
 * Content-Security-Policy needs no exception; "<" is escaped so that no value can close the element.
 */
export function shellWithSession(shell: string, user: UserDto | null, chunks: string[] = [], reads: string[] = []) {
  const json = JSON.stringify({ user }).replace(/</g, "\\u003c");
  const code = chunks.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
  const data = reads.map((read) => `<link rel="preload" as="fetch" crossorigin href="/api${escapeAttribute(read)}">`);
  return shell.replace(
    "</head>",
    `${[...data, ...code].join("")}<script type="application/json" id="session-data">${json}</script></head>`,
  );
}

const escapeAttribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

function robotsTxt(publicUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${new URL("/sitemap.xml", publicUrl).href}\n`;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" }[ch]};`);

function sitemapXml(publicUrl: string, pages: string[]): string {
  const urls = pages.map((page) => `  <url><loc>${escapeXml(new URL(page, publicUrl).href)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}
