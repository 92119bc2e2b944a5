// Budget: the gzipped JavaScript the landing page (/) loads before it is interactive must stay at or
// under 100 kB (1 kB = 1000 bytes). Measured from the build output (run `npm run build` first):
// the entry script and every module index.html preloads, plus the landing route's lazy chunk and its
// static imports, each file counted once. Other routes' chunks and lazily loaded extras (toasts, the
// QueryClient) are not part of it. Exits 1 above budget.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET_BYTES = 100_000;
const LANDING_MODULE = "src/app/routes/public/home.tsx";
const dist = "apps/web/dist";
const manifestPath = path.join(dist, ".vite/manifest.json");

if (!existsSync(manifestPath)) {
  console.error(`FAIL: ${manifestPath} is missing: build the web app first (npm run build).`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const html = readFileSync(path.join(dist, "index.html"), "utf8");

/** A manifest entry's file and, recursively, everything it imports statically. */
function withStaticImports(key, into) {
  const entry = manifest[key];
  if (!entry) throw new Error(`${key} is not in the Vite manifest`);
  if (into.has(entry.file)) return into;
  into.set(entry.file, key);
  for (const imported of entry.imports ?? []) withStaticImports(imported, into);
  return into;
}

const files = new Map();
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
withStaticImports(entryKey, files);
// What index.html itself asks for (its module script and modulepreload links) counts as well.
for (const [, href] of html.matchAll(
  /<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g,
)) {
  if (!files.has(href)) files.set(href, "index.html");
}
if (!manifest[LANDING_MODULE]) {
  console.error(`FAIL: the landing route ${LANDING_MODULE} is not a chunk of its own in the manifest.`);
  process.exit(1);
}
withStaticImports(LANDING_MODULE, files);

let total = 0;
const rows = [];
for (const [file, from] of files) {
  const bytes = gzipSync(readFileSync(path.join(dist, file))).length;
  total += bytes;
  rows.push({ file, from, bytes });
}
rows.sort((a, b) => b.bytes - a.bytes);
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
console.log("Landing page JavaScript before interactive (gzipped):");
for (const row of rows) console.log(`  ${kB(row.bytes).padStart(9)}  ${row.file}  (${row.from})`);
console.log(`  ${"-".repeat(9)}`);
console.log(`  ${kB(total).padStart(9)}  total, budget ${kB(BUDGET_BYTES)}`);
if (total > BUDGET_BYTES) {
  console.error(
    `FAIL: the landing page loads ${kB(total)} of gzipped JavaScript, over the ${kB(BUDGET_BYTES)} budget.`,
  );
  process.exit(1);
}
console.log("OK: within budget.");
