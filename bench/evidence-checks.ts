// How well the evidence checks read, catch and match, measured on a labelled corpus built by evidence-corpus.ts with
// the checker's own code (analyzeFile, perceptualHash and its match threshold): field-level extraction accuracy on
// text PDFs and on photographed documents, tamper recall and false positives, photo-reuse recall and false
// positives, and seconds per file. Goals (exit 1 when missed): fields ≥ 95% (text PDFs) and ≥ 85% (photographed),
// reuse recall ≥ 95% with ≤ 1% false positives, ≤ 10 s per typical file.
//
//   npm run bench:evidence                  the full corpus (≥ 300 files); writes bench/results/evidence-checks.json
//   npm run bench:evidence -- --slice       a small corpus for CI (under a minute); writes nothing
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { analyzeFile } from "../apps/server/src/services/evidence-checks/analyze";
import { closeOcr } from "../apps/server/src/services/evidence-checks/ocr";
import { hammingDistance, PHASH_MATCH_BITS, perceptualHash } from "../apps/server/src/services/evidence-checks/phash";
import { CHECKER_VERSION } from "../apps/server/src/services/evidence-checks/version";
import {
  documentSpec,
  incrementalUpdate,
  photographedDocument,
  photoVariant,
  rng,
  scannedPdf,
  sitePhoto,
  stripped,
  type Truth,
  textPdf,
  VARIANTS,
  withCameraExif,
} from "./evidence-corpus";

export interface EvidenceBenchResult {
  checkerVersion: string;
  measuredAt: string;
  how: string;
  slice: boolean;
  files: number;
  fieldAccuracy: {
    textPdf: number;
    photographed: number;
    scannedPdf: number;
    fieldsRead: { textPdf: number; photographed: number; scannedPdf: number };
  };
  tamperRecall: number;
  tamperFalsePositiveRate: number;
  reuseRecall: number;
  reuseFalsePositiveRate: number;
  secondsPerFile: { mean: number; p95: number; max: number };
  goals: Record<string, boolean>;
}

const FIELDS = ["kind", "issuer", "documentNumber", "issueDate", "total", "currency"] as const;
const squash = (v: unknown) =>
  String(v ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9.]/g, "");

/** How many of a document's six fields were read right. */
function fieldsRight(truth: Truth, read: Awaited<ReturnType<typeof analyzeFile>>["extracted"]): number {
  return FIELDS.filter((field) => {
    const expected = truth[field];
    const got = read?.[field] ?? null;
    if (field === "total")
      return expected === null ? got === null : typeof got === "number" && Math.abs(got - (expected as number)) < 0.005;
    return squash(expected) === squash(got);
  }).length;
}

const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function runEvidenceBench(options: {
  slice: boolean;
  log?: (line: string) => void;
}): Promise<EvidenceBenchResult> {
  const log = options.log ?? (() => {});
  const n = options.slice
    ? {
        pdfs: 8,
        photographed: 3,
        scanned: 2,
        photos: 6,
        lookalikes: 6,
        incremental: 3,
        pdfEdited: 2,
        exifEdited: 3,
        stripped: 2,
        clean: 3,
      }
    : {
        pdfs: 90,
        photographed: 40,
        scanned: 20,
        photos: 40,
        lookalikes: 40,
        incremental: 20,
        pdfEdited: 10,
        exifEdited: 15,
        stripped: 10,
        clean: 15,
      };
  const r = rng(20260314);
  const seconds: number[] = [];
  let files = 0;
  const timed = async (bytes: Buffer, name: string) => {
    const started = performance.now();
    const analysis = await analyzeFile(bytes, name);
    seconds.push((performance.now() - started) / 1000);
    files++;
    return analysis;
  };

  // Documents: text PDFs, then photographed paper.
  let pdfRight = 0;
  let photoRight = 0;
  const cleanPdfs: Buffer[] = [];
  for (let i = 0; i < n.pdfs; i++) {
    const { truth, lines } = documentSpec(r);
    const pdf = await textPdf(lines);
    if (cleanPdfs.length < n.incremental) cleanPdfs.push(pdf);
    pdfRight += fieldsRight(truth, (await timed(pdf, `document-${i}.pdf`)).extracted);
  }
  log(`text PDFs: ${n.pdfs}`);
  for (let i = 0; i < n.photographed; i++) {
    const { truth, lines } = documentSpec(r);
    const image = await photographedDocument(r, lines);
    photoRight += fieldsRight(truth, (await timed(image, `scan-${i}.jpg`)).extracted);
  }
  log(`photographed documents: ${n.photographed}`);
  let scanRight = 0;
  for (let i = 0; i < n.scanned; i++) {
    const { truth, lines } = documentSpec(r);
    const pdf = await scannedPdf(await photographedDocument(r, lines));
    scanRight += fieldsRight(truth, (await timed(pdf, `scanned-${i}.pdf`)).extracted);
  }
  log(`scanned PDFs: ${n.scanned}`);

  // Tampering: each altered file must raise its flag; clean files must raise none of these.
  const tamperCodes = new Set(["pdf_incremental_update", "edited_metadata", "stripped_metadata"]);
  let tampered = 0;
  let caught = 0;
  let clean = 0;
  let cleanFlagged = 0;
  for (const [i, pdf] of cleanPdfs.entries()) {
    const analysis = await timed(incrementalUpdate(pdf), `updated-${i}.pdf`);
    tampered++;
    if (analysis.flags.some((f) => f.code === "pdf_incremental_update")) caught++;
  }
  for (let i = 0; i < n.pdfEdited; i++) {
    const analysis = await timed(await textPdf(documentSpec(r).lines, { edited: true }), `edited-${i}.pdf`);
    tampered++;
    if (analysis.flags.some((f) => f.code === "edited_metadata")) caught++;
  }
  const smallPhoto = async () =>
    (await import("sharp"))
      .default(await sitePhoto(r))
      .resize({ width: 480 })
      .toBuffer();
  for (let i = 0; i < n.exifEdited; i++) {
    const image = await withCameraExif(await smallPhoto(), {
      software: i % 2 ? "Adobe Photoshop 25.1" : "GIMP 2.10.36",
    });
    const analysis = await timed(image, `IMG_${4000 + i}.jpg`);
    tampered++;
    if (analysis.flags.some((f) => f.code === "edited_metadata")) caught++;
  }
  for (let i = 0; i < n.stripped; i++) {
    const analysis = await timed(await stripped(await smallPhoto()), `IMG_${5000 + i}.JPG`);
    tampered++;
    if (analysis.flags.some((f) => f.code === "stripped_metadata")) caught++;
  }
  for (let i = 0; i < n.clean; i++) {
    const camera = await timed(await withCameraExif(await smallPhoto()), `IMG_${6000 + i}.jpg`);
    const pdf = await timed(await textPdf(documentSpec(r).lines), `clean-${i}.pdf`);
    clean += 2;
    for (const analysis of [camera, pdf]) if (analysis.flags.some((f) => tamperCodes.has(f.code))) cleanFlagged++;
  }
  log(`tampered: ${tampered}, clean: ${clean}`);

  // Reuse: each variant must match its original; no look-alike or other original may match any original.
  const originals: string[] = [];
  const variants: { of: number; hash: string }[] = [];
  const unrelated: string[] = [];
  for (let i = 0; i < n.photos; i++) {
    const photo = await sitePhoto(r);
    const started = performance.now();
    originals.push((await perceptualHash(photo)) ?? "");
    seconds.push((performance.now() - started) / 1000);
    files++;
    for (const variant of VARIANTS) {
      variants.push({ of: i, hash: (await perceptualHash(await photoVariant(photo, variant, r))) ?? "" });
      files++;
    }
  }
  for (let i = 0; i < n.lookalikes; i++) {
    // Same sky, ground and horizon as an original, other buildings: the same site, another photo.
    const family = { sky: "hsl(205,50%,70%)", ground: "hsl(60,35%,40%)", horizon: 420 };
    unrelated.push((await perceptualHash(await sitePhoto(r, family))) ?? "");
    files++;
  }
  const matches = (a: string, b: string) => hammingDistance(a, b) <= PHASH_MATCH_BITS;
  const found = variants.filter((v) => matches(v.hash, originals[v.of])).length;
  let pairs = 0;
  let falseMatches = 0;
  for (const [i, a] of [...originals, ...unrelated].entries()) {
    for (const [j, b] of originals.entries()) {
      if (i === j) continue;
      pairs++;
      if (matches(a, b)) falseMatches++;
    }
  }
  log(`photos: ${originals.length} originals, ${variants.length} variants, ${unrelated.length} look-alikes`);

  const sorted = [...seconds].sort((a, b) => a - b);
  const fieldAccuracy = {
    textPdf: round(pdfRight / (n.pdfs * FIELDS.length)),
    photographed: round(photoRight / (n.photographed * FIELDS.length)),
    scannedPdf: round(scanRight / (n.scanned * FIELDS.length)),
    fieldsRead: {
      textPdf: n.pdfs * FIELDS.length,
      photographed: n.photographed * FIELDS.length,
      scannedPdf: n.scanned * FIELDS.length,
    },
  };
  const result: EvidenceBenchResult = {
    checkerVersion: CHECKER_VERSION,
    measuredAt: new Date().toISOString(),
    how: `npm run bench:evidence${options.slice ? " -- --slice" : ""} on ${cpus().length} CPU core(s), Node ${process.version}: a seeded corpus of ${files} generated files, checked one at a time with the server's checker code`,
    slice: options.slice,
    files,
    fieldAccuracy,
    tamperRecall: round(caught / tampered),
    tamperFalsePositiveRate: round(cleanFlagged / clean),
    reuseRecall: round(found / variants.length),
    reuseFalsePositiveRate: round(falseMatches / pairs),
    secondsPerFile: {
      mean: round(seconds.reduce((s, x) => s + x, 0) / seconds.length, 3),
      p95: round(sorted[Math.floor(sorted.length * 0.95)] ?? 0, 3),
      max: round(sorted.at(-1) ?? 0, 3),
    },
    goals: {},
  };
  result.goals = {
    textPdfFields95: result.fieldAccuracy.textPdf >= 0.95,
    photographedFields85: result.fieldAccuracy.photographed >= 0.85,
    scannedPdfFields85: result.fieldAccuracy.scannedPdf >= 0.85,
    reuseRecall95: result.reuseRecall >= 0.95,
    reuseFalsePositives1: result.reuseFalsePositiveRate <= 0.01,
    tenSecondsPerFile: result.secondsPerFile.p95 <= 10,
  };
  return result;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main() {
  const { values } = parseArgs({ options: { slice: { type: "boolean", default: false } } });
  const result = await runEvidenceBench({ slice: values.slice, log: (line) => console.log(`  ${line}`) });
  await closeOcr();
  console.log(`Evidence checks (${result.checkerVersion}), ${result.files} files${result.slice ? " (slice)" : ""}`);
  console.log(`  fields read right, text PDFs:          ${pct(result.fieldAccuracy.textPdf)}  (goal ≥ 95%)`);
  console.log(`  fields read right, photographed docs:  ${pct(result.fieldAccuracy.photographed)}  (goal ≥ 85%)`);
  console.log(`  fields read right, scanned PDFs:       ${pct(result.fieldAccuracy.scannedPdf)}  (goal ≥ 85%)`);
  console.log(`  tamper recall:                         ${pct(result.tamperRecall)}`);
  console.log(`  tamper false positives (clean files):  ${pct(result.tamperFalsePositiveRate)}`);
  console.log(`  reuse recall:                          ${pct(result.reuseRecall)}  (goal ≥ 95%)`);
  console.log(`  reuse false positives (pairs):         ${pct(result.reuseFalsePositiveRate)}  (goal ≤ 1%)`);
  console.log(
    `  seconds per file: mean ${result.secondsPerFile.mean}, p95 ${result.secondsPerFile.p95}, max ${result.secondsPerFile.max}  (goal ≤ 10)`,
  );
  if (!result.slice) {
    writeFileSync(new URL("./results/evidence-checks.json", import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
    console.log("  saved bench/results/evidence-checks.json");
  }
  const missed = Object.entries(result.goals).filter(([, met]) => !met);
  if (missed.length) console.log(`Missed: ${missed.map(([goal]) => goal).join(", ")}`);
  process.exitCode = missed.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) await main();
