// Runs after `vite build`: prerenders every static public page to HTML (so its content shows before any
// JavaScript runs) and precompresses what the server sends (brotli and gzip, chosen per request).
//   dist/index.html, dist/<path>/index.html   public pages, their markup inside #root (hydrated by main.tsx)
//   dist/app.html                             the empty shell for every other route (signed-in screens, 404)
//   dist/assets/boot-<hash>.js                 what public pages load first: the app, once the page has painted
//   dist/.vite/prerendered.json               the prerendered paths (the server's sitemap.xml lists them)
//   dist/.vite/routes.json                    every route pattern of the router (elsewhere the server answers 404)
//   <file>.br, <file>.gz                      beside every compressible file, when smaller
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { build } from "vite";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = path.join(root, "dist");
const ssrOut = path.join(root, "node_modules/.prerender");
const ROOT_ELEMENT = '<div id="root"></div>';

// The same source, config and aliases as the client build, bundled for Node.
await build({
  root,
  logLevel: "warn",
  build: {
    ssr: "src/prerender.tsx",
    outDir: ssrOut,
    emptyOutDir: true,
    manifest: false,
    copyPublicDir: false,
  },
  // The domain package ships TypeScript sources: bundle it rather than import it at run time.
  ssr: { noExternal: ["@tranche/domain"] },
});
const { appPagesDrift, pageTitle, renderPage, routePatterns, staticPublicPaths } = await import(
  pathToFileURL(path.join(ssrOut, "prerender.js")).href
);
// The service worker serves the app's pages offline from src/app/app-pages.ts: it must name the router's exactly.
const drift = appPagesDrift();
if (drift.length) throw new Error(`src/app/app-pages.ts and the router differ: ${drift.join("; ")}`);

const shell = readFileSync(path.join(dist, "index.html"), "utf8");
if (!shell.includes(ROOT_ELEMENT)) throw new Error(`dist/index.html has no ${ROOT_ELEMENT} to fill`);
writeFileSync(path.join(dist, "app.html"), shell);

// A prerendered page shows its content before any JavaScript runs, so it asks for none until it has painted:
// on a slow phone the scripts (and the font, drawn meanwhile in its metric-matched fallback) would otherwise
// share the bandwidth with the HTML and CSS and delay the first paint. A tab opened in the background loads at
// once (it does not paint). The app shell keeps its preloads: it has nothing to show without its JavaScript.
const entryTag = shell.match(/<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/);
if (!entryTag) throw new Error("dist/index.html has no module entry script");
const boot = `const load = () => import(${JSON.stringify(entryTag[1])});
if (document.visibilityState === "hidden") load();
else requestAnimationFrame(() => setTimeout(load, 0));
`;
const bootFile = `assets/boot-${createHash("sha256").update(boot).digest("base64url").slice(0, 8)}.js`;
writeFileSync(path.join(dist, bootFile), boot);
// The installable app (its manifest and home-screen icon) is the signed-in app's: the public pages stay as they were.
const publicShell = shell
  .replace(entryTag[0], `<script type="module" src="/${bootFile}"></script>`)
  .replace(/\s*<link rel="(?:modulepreload|preload|manifest|apple-touch-icon)"[^>]*>/g, "");

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (ch) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot" }[ch]};`);
if (!/<title>[^<]*<\/title>/.test(shell)) throw new Error("dist/index.html has no <title> to fill");
const paths = staticPublicPaths();
for (const pagePath of paths) {
  const markup = await renderPage(pagePath);
  if (!markup.includes("<h1")) throw new Error(`${pagePath} prerendered without an h1: ${markup.slice(0, 200)}`);
  const dir = path.join(dist, pagePath);
  mkdirSync(dir, { recursive: true });
  const page = publicShell
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(pageTitle(pagePath))}</title>`)
    .replace(ROOT_ELEMENT, `<div id="root">${markup}</div>`);
  writeFileSync(path.join(dir, "index.html"), page);
}
mkdirSync(path.join(dist, ".vite"), { recursive: true });
writeFileSync(path.join(dist, ".vite/prerendered.json"), `${JSON.stringify(paths, null, 2)}\n`);
writeFileSync(path.join(dist, ".vite/routes.json"), `${JSON.stringify(routePatterns(), null, 2)}\n`);
rmSync(ssrOut, { recursive: true, force: true });

const COMPRESSIBLE = /\.(?:html|js|css|svg|json|txt|xml)$/;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const files = readdirSync(dist, { recursive: true, encoding: "utf8" })
  .map((file) => path.join(dist, file))
  .filter((file) => COMPRESSIBLE.test(file) && statSync(file).isFile());
let compressed = 0;
await Promise.all(
  files.map(async (file) => {
    const source = readFileSync(file);
    const variants = [
      [
        ".br",
        await brotli(source, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        }),
      ],
      [".gz", await gz(source, { level: 9 })],
    ];
    for (const [extension, bytes] of variants) {
      if (bytes.length >= source.length) continue;
      writeFileSync(file + extension, bytes);
      compressed++;
    }
  }),
);
console.log(`prerendered ${paths.length} public pages; ${compressed} precompressed files (brotli, gzip)`);
