// Placeholder until the public-site work lands its budget check: reports the entry chunk size.
import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dir = "apps/web/dist/assets";
let total = 0;
for (const file of readdirSync(dir).filter((f) => f.startsWith("index-") && f.endsWith(".js"))) {
  total += gzipSync(readFileSync(`${dir}/${file}`)).length;
}
console.log(`entry JavaScript: ${(total / 1024).toFixed(1)} kB gzipped`);
