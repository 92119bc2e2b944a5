// Draws the installable app's icons from the Tranche mark (public/favicon.svg: three rising bars on navy) into
// public/icons/. Run after changing the mark: node apps/web/scripts/icons.mjs (the PNGs are committed).
//   icon-192.png, icon-512.png   the mark as it is, rounded corners, for launchers that show the icon whole
//   icon-maskable-512.png         full-bleed navy, the bars inside the central safe zone, for launchers that crop
//   apple-touch-icon.png (180)    full-bleed: iOS rounds the corners itself
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const NAVY = "#0f1f3d";
const GREEN = "#34d399";
const BARS = "M8 22h4v-6H8zm6 0h4V12h-4zm6 0h4V8h-4z";
const out = fileURLToPath(new URL("../public/icons/", import.meta.url));
mkdirSync(out, { recursive: true });

/** The mark on a 32-unit canvas: `corner` rounds the background, `scale` shrinks the bars about the centre. */
function mark({ corner, scale }) {
  const offset = 16 * (1 - scale);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
  <rect width="32" height="32" rx="${corner}" fill="${NAVY}"/>
  <path d="${BARS}" fill="${GREEN}" transform="translate(${offset} ${offset}) scale(${scale})"/>
</svg>`;
}

const icons = [
  { file: "icon-192.png", size: 192, svg: mark({ corner: 7, scale: 1 }) },
  { file: "icon-512.png", size: 512, svg: mark({ corner: 7, scale: 1 }) },
  // The safe zone of a maskable icon is the central circle of 80% diameter: the bars (16 of 32 units) at 0.8 fit it.
  { file: "icon-maskable-512.png", size: 512, svg: mark({ corner: 0, scale: 0.8 }) },
  { file: "apple-touch-icon.png", size: 180, svg: mark({ corner: 0, scale: 0.9 }) },
];

for (const icon of icons) {
  await sharp(Buffer.from(icon.svg), { density: (72 * icon.size) / 32 })
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, icon.file));
  console.log(`${icon.file} ${icon.size}×${icon.size}`);
}
