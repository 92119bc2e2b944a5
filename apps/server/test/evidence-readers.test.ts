// The evidence checker's readers on their own: amounts and dates as documents write them, document numbers as OCR
// misreads them, PDF revisions (a linearized file is not an edit), and the perceptual hash's distance.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { incrementalUpdate, rng, sitePhoto, textPdf } from "../../../bench/evidence-corpus";
import { documentKey, extractFields, parseAmount, parseDate } from "../src/services/evidence-checks/fields";
import { incrementalUpdates, pdfDate } from "../src/services/evidence-checks/pdf";
import { hammingDistance, PHASH_MATCH_BITS, perceptualHash } from "../src/services/evidence-checks/phash";

describe("document fields", () => {
  it("reads amounts with either decimal mark, grouped by commas, dots or spaces", () => {
    expect(parseAmount("USD 125,400.00")).toBe(125_400);
    expect(parseAmount("€ 12.400,50")).toBe(12_400.5);
    expect(parseAmount("125 400")).toBe(125_400);
    expect(parseAmount("$1,2O0.00")).toBe(1_200);
    expect(parseAmount("no amount")).toBeNull();
  });

  it("reads dates as documents write them, day first when slashed", () => {
    expect(parseDate("Date: 2026-03-14")).toBe("2026-03-14");
    expect(parseDate("Date: 14/03/2026")).toBe("2026-03-14");
    expect(parseDate("Issued 14 March 2026")).toBe("2026-03-14");
    expect(parseDate("March 14, 2026")).toBe("2026-03-14");
    expect(parseDate("2026-02-30")).toBeNull();
  });

  it("compares document numbers without case, separators or OCR's O-for-0", () => {
    expect(documentKey("invoice", "INV-2026-0042")).toBe(documentKey("invoice", "inv 2026 OO42"));
    expect(documentKey("invoice", "INV-1")).not.toBe(documentKey("certificate", "INV-1"));
  });

  it("takes the grand total, not the subtotal or the tax, and ignores the due date", () => {
    const read = extractFields(
      [
        "INVOICE",
        "Supplier: Kibo Builders Ltd",
        "Invoice #: INV-88",
        "Due date: 2026-04-30",
        "Invoice Date: 2026-03-31",
        "Subtotal: KES 100,000.00",
        "VAT 16%: KES 16,000.00",
        "Grand total: KES 116,000.00",
      ].join("\n"),
    );
    expect(read).toEqual({
      kind: "invoice",
      issuer: "Kibo Builders Ltd",
      documentNumber: "INV-88",
      issueDate: "2026-03-31",
      total: 116_000,
      currency: "KES",
    });
  });

  it("finds no document in a photo's noise", () => {
    expect(extractFields("~~ ::: ..\n// ==")).toBeNull();
  });
});

describe("PDF revisions", () => {
  it("counts revisions appended after the first save, and not a linearized file's second section", async () => {
    const original = await textPdf(["INVOICE", "Invoice No: INV-1"]);
    expect(incrementalUpdates(original)).toBe(0);
    expect(incrementalUpdates(incrementalUpdate(original))).toBe(1);
    expect(incrementalUpdates(incrementalUpdate(incrementalUpdate(original)))).toBe(2);
    const linearized = Buffer.from(
      "%PDF-1.7\n1 0 obj << /Linearized 1 /L 100 >> endobj\nxref\ntrailer\n%%EOF\nxref\ntrailer\n%%EOF\n",
      "latin1",
    );
    expect(incrementalUpdates(linearized)).toBe(0);
  });

  it("reads PDF dates with their offset", () => {
    expect(pdfDate("D:20260314103000+01'00'")?.toISOString()).toBe("2026-03-14T09:30:00.000Z");
    expect(pdfDate("D:20260314")?.toISOString()).toBe("2026-03-14T00:00:00.000Z");
    expect(pdfDate(undefined)).toBeNull();
  });
});

describe("perceptual hash", () => {
  it("keeps a re-encoded, resized, cropped or recoloured copy close and another photo far", async () => {
    const photo = await sitePhoto(rng(1));
    const hash = (await perceptualHash(photo)) ?? "";
    const copies = await Promise.all([
      sharp(photo).jpeg({ quality: 40 }).toBuffer(),
      sharp(photo).resize({ width: 300 }).png().toBuffer(),
      sharp(photo).extract({ left: 30, top: 20, width: 960, height: 720 }).toBuffer(),
      sharp(photo).modulate({ brightness: 1.15, saturation: 0.7, hue: 20 }).toBuffer(),
    ]);
    for (const copy of copies) {
      expect(hammingDistance(hash, (await perceptualHash(copy)) ?? "")).toBeLessThanOrEqual(PHASH_MATCH_BITS);
    }
    const other = (await perceptualHash(await sitePhoto(rng(2)))) ?? "";
    expect(hammingDistance(hash, other)).toBeGreaterThan(PHASH_MATCH_BITS);
    expect(await perceptualHash(Buffer.from("not an image"))).toBeNull();
  });
});
