// One file on its own: what it is, what it says and what its bytes reveal about edits. Nothing here needs the
// database; what depends on the milestone or on other files is in cross-check.ts. The bench runs this same code.
import type { EvidenceFlagCode, EvidenceFlagSeverity, ExtractedDocumentDto } from "@tranche/domain";
import sharp from "sharp";
import { CAMERA_FILE_NAME, EDITING_SOFTWARE, type PhotoMetadata, readPhotoMetadata } from "./exif";
import { extractFields } from "./fields";
import { readImageText } from "./ocr";
import { pdfEditSigns, readPdf } from "./pdf";
import { perceptualHash } from "./phash";

export interface RaisedFlag {
  code: EvidenceFlagCode;
  severity: EvidenceFlagSeverity;
  message: string;
  details?: Record<string, unknown>;
}

export interface FileAnalysis {
  type: "pdf" | "image" | "other";
  /** The document's fields; null for a photo of a site or an unreadable file. */
  extracted: ExtractedDocumentDto | null;
  /** The perceptual hash of an image (16 hex digits). */
  photoHash: string | null;
  /** A photo's EXIF; null for a PDF or other file. */
  photo: PhotoMetadata | null;
  /** Flags that follow from the file alone (edits and stripped metadata). */
  flags: RaisedFlag[];
}

/** OCR below this mean confidence is noise (a site photo), not a document's text. */
const MIN_OCR_CONFIDENCE = 45;

function sniff(bytes: Buffer): "pdf" | "image" | "other" {
  if (bytes.subarray(0, 1024).includes("%PDF-")) return "pdf";
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return "image";
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") {
    return "image";
  }
  if (["II*\0", "MM\0*"].includes(bytes.subarray(0, 4).toString("latin1"))) return "image";
  return "other";
}

async function analyzePdf(bytes: Buffer): Promise<FileAnalysis> {
  const pdf = await readPdf(bytes);
  const flags: RaisedFlag[] = [];
  if (pdf.updates > 0) {
    flags.push({
      code: "pdf_incremental_update",
      severity: "high",
      message: `This PDF was changed after it was first saved: ${pdf.updates} later revision${pdf.updates === 1 ? " was" : "s were"} appended to the original.`,
      details: { updates: pdf.updates },
    });
  }
  const signs = pdfEditSigns(pdf);
  if (signs.length > 0) {
    flags.push({
      code: "edited_metadata",
      severity: "medium",
      message: `This PDF's metadata says ${signs.join(", and ")}.`,
      details: {
        producer: pdf.producer,
        creator: pdf.creator,
        creationDate: pdf.creationDate?.toISOString() ?? null,
        modDate: pdf.modDate?.toISOString() ?? null,
      },
    });
  }
  // A scan saved as PDF has no text layer: its page image is read like a photo of paper.
  let text = pdf.text;
  if (pdf.scan) {
    const ocr = await readImageText(pdf.scan);
    text = ocr.confidence >= MIN_OCR_CONFIDENCE ? ocr.text : "";
  }
  return { type: "pdf", extracted: extractFields(text), photoHash: null, photo: null, flags };
}

async function analyzeImage(bytes: Buffer, originalName: string): Promise<FileAnalysis> {
  const [photoHash, photo] = await Promise.all([perceptualHash(bytes), readPhotoMetadata(bytes)]);
  const flags: RaisedFlag[] = [];
  if (photo.software && EDITING_SOFTWARE.test(photo.software)) {
    flags.push({
      code: "edited_metadata",
      severity: "medium",
      message: `This photo was last saved by ${photo.software}, an image editor, not by the camera that took it.`,
      details: { software: photo.software },
    });
  }
  const claimsCamera = CAMERA_FILE_NAME.test(originalName) || photo.make !== null || photo.model !== null;
  if (claimsCamera && !photo.capturedAt) {
    flags.push({
      code: "stripped_metadata",
      severity: "low",
      message:
        photo.make || photo.model
          ? "This photo names its camera but carries no time of capture: its metadata was partly removed."
          : `"${originalName}" is named like a camera's photo but carries no camera metadata: it was removed or the file was re-saved.`,
    });
  }
  let extracted: ExtractedDocumentDto | null = null;
  // Only a readable image is worth reading; a corrupt one still gets its metadata checked.
  const readable = await sharp(bytes, { failOn: "none" })
    .metadata()
    .then(() => true)
    .catch(() => false);
  if (readable) {
    const ocr = await readImageText(bytes);
    if (ocr.confidence >= MIN_OCR_CONFIDENCE) extracted = extractFields(ocr.text);
  }
  return { type: "image", extracted, photoHash, photo, flags };
}

/** Reads one file: a PDF's text and edit traces, an image's hash, EXIF and text. */
export async function analyzeFile(bytes: Buffer, originalName: string): Promise<FileAnalysis> {
  const type = sniff(bytes);
  if (type === "pdf") return analyzePdf(bytes);
  if (type === "image") return analyzeImage(bytes, originalName);
  return { type, extracted: null, photoHash: null, photo: null, flags: [] };
}
