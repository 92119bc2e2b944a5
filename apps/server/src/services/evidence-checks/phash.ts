// A perceptual hash of an image: the same photo re-encoded, resized, slightly cropped or recoloured hashes to nearly
// the same 64 bits, while a different photo differs in about half of them. The classic DCT hash: the image's
// brightness at 32×32, its 8×8 lowest frequencies, each bit telling whether a frequency is above their median.
import sharp from "sharp";

const SIZE = 32;
const LOW = 8;

/** Hashes further apart than this many bits (of 64) are different photos; measured by `npm run bench:evidence`. */
export const PHASH_MATCH_BITS = 10;

// The DCT-II basis, computed once: cos((2x + 1) u π / 2N) for the low frequencies only.
const basis = Array.from({ length: LOW }, (_, u) =>
  Float64Array.from({ length: SIZE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * SIZE))),
);

/** The 64-bit perceptual hash as 16 hex digits, or null when the bytes are not an image sharp can read. */
export async function perceptualHash(image: Buffer): Promise<string | null> {
  let pixels: Buffer;
  try {
    // rotate(): honour the EXIF orientation, so a photo and its rotated-on-display copy agree.
    pixels = await sharp(image, { failOn: "none" })
      .rotate()
      .greyscale()
      .resize(SIZE, SIZE, { fit: "fill", kernel: "cubic" })
      .raw()
      .toBuffer();
  } catch {
    return null;
  }
  // Separable 2D DCT, low frequencies only: rows first, then columns.
  const rows: number[][] = [];
  for (let y = 0; y < SIZE; y++) {
    const row: number[] = [];
    for (let u = 0; u < LOW; u++) {
      let sum = 0;
      for (let x = 0; x < SIZE; x++) sum += pixels[y * SIZE + x] * basis[u][x];
      row.push(sum);
    }
    rows.push(row);
  }
  const coefficients: number[] = [];
  for (let v = 0; v < LOW; v++) {
    for (let u = 0; u < LOW; u++) {
      let sum = 0;
      for (let y = 0; y < SIZE; y++) sum += rows[y][u] * basis[v][y];
      coefficients.push(sum);
    }
  }
  // The DC term is the mean brightness: left out of the median, so a brighter copy hashes the same.
  const sorted = coefficients.slice(1).sort((a, b) => a - b);
  const median = (sorted[31] + sorted[32]) / 2;
  let hex = "";
  for (let nibble = 0; nibble < 16; nibble++) {
    let value = 0;
    for (let bit = 0; bit < 4; bit++) {
      const index = nibble * 4 + bit;
      value = (value << 1) | (index > 0 && coefficients[index] > median ? 1 : 0);
    }
    hex += value.toString(16);
  }
  return hex;
}

/** How many of the 64 bits differ. */
export function hammingDistance(a: string, b: string): number {
  let distance = 0;
  for (let i = 0; i < 16; i++) {
    let x = Number.parseInt(a[i], 16) ^ Number.parseInt(b[i], 16);
    while (x) {
      distance += x & 1;
      x >>= 1;
    }
  }
  return distance;
}
