// What a PDF says about itself: its text layer, and the traces an edit leaves. An editor that changes a saved PDF
// usually appends an incremental update (another xref section and `%%EOF` after the original) instead of rewriting
// it, and stamps a modification date and its own name as producer.
import sharp from "sharp";
import { extractImages, getDocumentProxy, getMeta } from "unpdf";

export interface PdfReading {
  /** The text layer, one line per line of text; empty for a scan saved as PDF. */
  text: string;
  /**
   * A scan saved as PDF (no text layer): its first page's largest image as PNG, for OCR; null when it has text.
   */
  scan: Buffer | null;
  /** How many times the file was saved after it was first written (incremental updates). */
  updates: number;
  creationDate: Date | null;
  modDate: Date | null;
  producer: string | null;
  creator: string | null;
}

/** Tools that edit an existing PDF; a file they produced but another program created was edited after the fact. */
const EDITORS =
  /ilovepdf|smallpdf|sejda|pdfescape|pdf-?xchange|foxit\s*phantom|nitro|pdfelement|acrobat\s*(?:pro|standard)|pdf\s*editor|pdffiller|canva|pdf-lib|pdfsam|qpdf/i;

/** "D:20260314103000+01'00'" → Date. */
export function pdfDate(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const m = value.match(/^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/);
  if (!m) return null;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", sign, oh = "00", om = "00"] = m;
  const utc = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const offset = sign === "+" || sign === "-" ? (sign === "+" ? 1 : -1) * (+oh * 60 + +om) * 60_000 : 0;
  const date = new Date(utc - offset);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Revisions after the first: each save appends a `%%EOF`. A linearized ("fast web view") file has two by design,
 * its first-page section and the rest, so one is not counted there.
 */
export function incrementalUpdates(bytes: Buffer): number {
  const text = bytes.toString("latin1");
  const eofs = text.match(/%%EOF/g)?.length ?? 0;
  const linearized = /\/Linearized\s/.test(text.slice(0, 2048)) ? 1 : 0;
  return Math.max(0, eofs - 1 - linearized);
}

/** The largest image on the first page, as PNG (pdf.js decodes it; no canvas needed). */
async function largestImage(document: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<Buffer | null> {
  const images = await extractImages(document, 1).catch(() => []);
  const image = images.sort((a, b) => b.width * b.height - a.width * a.height)[0];
  if (!image || image.width < 300 || image.height < 300) return null;
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .png()
    .toBuffer();
}

export async function readPdf(bytes: Buffer): Promise<PdfReading> {
  const document = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const lines: string[] = [];
    for (let page = 1; page <= Math.min(document.numPages, 10); page++) {
      const content = await (await document.getPage(page)).getTextContent();
      // Items on the same baseline are one line; pdf.js gives them in reading order.
      let line = "";
      let lastY: number | null = null;
      for (const item of content.items as { str?: string; transform?: number[]; hasEOL?: boolean }[]) {
        if (item.str === undefined) continue;
        const y: number | null = item.transform?.[5] ?? lastY;
        if (lastY !== null && y !== null && Math.abs(y - lastY) > 2) {
          lines.push(line);
          line = "";
        }
        line += line && item.str && !line.endsWith(" ") ? ` ${item.str}` : item.str;
        lastY = y;
        if (item.hasEOL) {
          lines.push(line);
          line = "";
          lastY = null;
        }
      }
      if (line) lines.push(line);
    }
    const { info } = await getMeta(document);
    const text = lines.join("\n");
    return {
      text,
      scan: text.replace(/\s/g, "").length < 20 ? await largestImage(document) : null,
      updates: incrementalUpdates(bytes),
      creationDate: pdfDate(info?.CreationDate),
      modDate: pdfDate(info?.ModDate),
      producer: typeof info?.Producer === "string" ? info.Producer : null,
      creator: typeof info?.Creator === "string" ? info.Creator : null,
    };
  } finally {
    await document.cleanup();
  }
}

/** Why the PDF looks edited after it was made, as clauses of a sentence; empty when nothing says so. */
export function pdfEditSigns(pdf: PdfReading): string[] {
  const signs: string[] = [];
  if (pdf.creationDate && pdf.modDate && pdf.modDate.getTime() - pdf.creationDate.getTime() > 60_000) {
    const days = Math.round((pdf.modDate.getTime() - pdf.creationDate.getTime()) / 86_400_000);
    signs.push(
      `it was modified ${days >= 1 ? `${days} day${days === 1 ? "" : "s"}` : "some time"} after it was created`,
    );
  }
  if (pdf.producer && EDITORS.test(pdf.producer) && !(pdf.creator && EDITORS.test(pdf.creator))) {
    signs.push(`it was last written by ${pdf.producer.trim()}, an editing tool, not by the program that created it`);
  }
  return signs;
}
