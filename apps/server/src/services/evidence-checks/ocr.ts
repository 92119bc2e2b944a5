// Reads the text of a scan or photo of paper with Tesseract (WebAssembly), using the English model shipped in an npm
// package: nothing is downloaded at run time. One worker per process, made on first use; its jobs run one at a time.
import { createRequire } from "node:module";
import sharp from "sharp";
import { createWorker, PSM, type Worker } from "tesseract.js";

const require = createRequire(import.meta.url);
const english = require("@tesseract.js-data/eng") as { langPath: string; gzip: boolean };

let worker: Promise<Worker> | undefined;

function ocrWorker(): Promise<Worker> {
  worker ??= createWorker("eng", 1, { langPath: english.langPath, gzip: english.gzip, cacheMethod: "none" }).then(
    async (w) => {
      await w.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
      return w;
    },
  );
  return worker;
}

export interface OcrReading {
  text: string;
  /** Tesseract's mean word confidence, 0–100. */
  confidence: number;
}

/**
 * The text of an image. It is first turned upright (EXIF orientation), made grey with its contrast stretched, and
 * brought to about 2,000 px on its long side: Tesseract reads small or dim photos of paper poorly, huge ones slowly.
 */
export async function readImageText(image: Buffer): Promise<OcrReading> {
  const meta = await sharp(image, { failOn: "none" }).metadata();
  const long = Math.max(meta.width ?? 0, meta.height ?? 0);
  const prepared = await sharp(image, { failOn: "none" })
    .rotate()
    .resize(long > 2000 || long < 1200 ? { width: 2000, height: 2000, fit: "inside" } : undefined)
    .greyscale()
    .normalise()
    .png()
    .toBuffer();
  const { data } = await (await ocrWorker()).recognize(prepared);
  return { text: data.text, confidence: data.confidence };
}

/** Ends the worker thread (at shutdown, and at the end of a bench or CLI run). */
export async function closeOcr(): Promise<void> {
  const running = worker;
  worker = undefined;
  if (running) await (await running).terminate();
}
