// A labelled corpus for the evidence checks, made here from a seed (nothing downloaded): invoices, certificates and
// inspection reports as text PDFs (pdf-lib) and as photographed paper (rendered, rotated, blurred, noised and
// JPEG-compressed with sharp); site photos with re-encoded, resized, cropped and recoloured copies and unrelated
// look-alikes; PDFs altered by an incremental update or an editor; photos saved by an editor or stripped of EXIF.
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { type ExtractedDocumentDto, LONG_MONTHS } from "../packages/domain/src";

export type Rng = () => number;

/** mulberry32: a small seeded generator, so every run builds the same corpus. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const int = (r: Rng, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

const COMPANIES = [
  "Acme Concrete Ltd",
  "Northwind Steel LLC",
  "Kibo Builders Ltd",
  "Sahel Solar Services",
  "Harbor Electrical Inc",
  "Atlas Engineering GmbH",
  "Meridian Roofing Co.",
  "Baobab Water Group",
  "Granite Ridge Corp",
  "Lakeside Surveying Ltd",
  "Summit Inspection Services",
  "Delta Civil Engineering",
];
const CURRENCIES = ["USD", "EUR", "GBP", "KES"] as const;
const SYMBOL: Record<string, string> = { USD: "$", EUR: "€", GBP: "£" };

export type Truth = Omit<ExtractedDocumentDto, "kind"> & { kind: "invoice" | "certificate" | "inspection_report" };

/** A document's truth and the lines printed on it, in one of several layouts and wordings. */
export function documentSpec(r: Rng): { truth: Truth; lines: string[] } {
  const kind = pick(r, ["invoice", "certificate", "inspection_report"] as const);
  const issuer = pick(r, COMPANIES);
  const year = int(r, 2024, 2026);
  const month = int(r, 1, 12);
  const day = int(r, 13, 28);
  const iso = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  const dateText = pick(r, [
    iso,
    `${day} ${LONG_MONTHS[month - 1]} ${year}`,
    `${LONG_MONTHS[month - 1]} ${day}, ${year}`,
    `${String(day).padStart(2, "0")}/${String(month).padStart(2, "0")}/${year}`,
  ]);
  const prefix = { invoice: "INV", certificate: "CERT", inspection_report: "IR" }[kind];
  const documentNumber = `${prefix}-${year}-${int(r, 100, 99999)}`;
  const currency = kind === "invoice" ? pick(r, CURRENCIES) : null;
  const total = kind === "invoice" ? int(r, 1_000, 900_000) + pick(r, [0, 0.5, 0.25, 0.99]) : null;
  const money = (value: number, cur: string) => {
    const fixed = value.toFixed(2);
    const [whole, cents] = fixed.split(".");
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, cur === "EUR" ? "." : ",");
    const amount = `${grouped}${cur === "EUR" ? "," : "."}${cents}`;
    return SYMBOL[cur] && r() < 0.5 ? `${SYMBOL[cur]}${amount}` : `${cur} ${amount}`;
  };
  const lines: string[] = [];
  const layout = int(r, 0, 2);
  if (kind === "invoice") {
    lines.push(layout === 1 ? `${issuer}` : "INVOICE");
    lines.push(layout === 1 ? "TAX INVOICE" : `${pick(r, ["From", "Supplier", "Issued by"])}: ${issuer}`);
    lines.push(`${pick(r, ["Invoice No", "Invoice Number", "Invoice #"])}: ${documentNumber}`);
    lines.push(`${pick(r, ["Date", "Invoice Date", "Date of issue"])}: ${dateText}`);
    lines.push(`Bill to: ${pick(r, ["Tranche Project Holdings", "Riverside Clinic Trust", "Green Valley School"])}`);
    const due = total ?? 0;
    const net = Math.round((due / 1.16) * 100) / 100;
    lines.push(`Description                       Qty   Amount`);
    lines.push(
      `${pick(r, ["Concrete works", "Steel beams", "Solar panels", "Roofing", "Labour"])}    1     ${money(net, currency ?? "USD")}`,
    );
    lines.push(`Subtotal: ${money(net, currency ?? "USD")}`);
    lines.push(`VAT 16%: ${money(Math.round((due - net) * 100) / 100, currency ?? "USD")}`);
    lines.push(`${pick(r, ["Total", "Total due", "Amount due", "Grand total"])}: ${money(due, currency ?? "USD")}`);
  } else if (kind === "certificate") {
    lines.push(pick(r, ["CERTIFICATE OF COMPLETION", "Certificate of Conformity", "COMPLETION CERTIFICATE"]));
    lines.push(`${pick(r, ["Certificate No", "Certificate Number", "Cert. No"])}: ${documentNumber}`);
    lines.push(`${pick(r, ["Issued by", "Issuer"])}: ${issuer}`);
    lines.push(`${pick(r, ["Date of issue", "Issue date", "Date"])}: ${dateText}`);
    lines.push("This certifies that the works described were completed");
    lines.push("in accordance with the approved drawings and standards.");
  } else {
    lines.push(pick(r, ["SITE INSPECTION REPORT", "Inspection Report", "INSPECTION REPORT"]));
    lines.push(`${pick(r, ["Report No", "Report Number", "Report #"])}: ${documentNumber}`);
    lines.push(`${pick(r, ["Inspector", "Inspected by", "Issued by"])}: ${issuer}`);
    lines.push(`${pick(r, ["Inspection date", "Date of inspection", "Date"])}: ${dateText}`);
    lines.push("Findings: foundations and structure as specified.");
    lines.push("Result: passed, no defects requiring action.");
  }
  return { truth: { kind, issuer, documentNumber, issueDate: iso, total, currency }, lines };
}

/** A text PDF of the lines, with the metadata a word processor writes (or, `edited`, an editor's traces). */
export async function textPdf(lines: string[], options: { edited?: boolean; created?: Date } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595, 842]);
  let y = 780;
  lines.forEach((line, i) => {
    // Helvetica in pdf-lib is WinAnsi: the euro sign is there, other symbols are not.
    page.drawText(line, { x: 50, y, size: i === 0 ? 18 : 11, font: i === 0 ? bold : font });
    y -= i === 0 ? 36 : 22;
  });
  const created = options.created ?? new Date("2026-03-01T09:00:00Z");
  pdf.setCreator("Microsoft Word");
  pdf.setProducer(options.edited ? "iLovePDF" : "Microsoft: Print To PDF");
  pdf.setCreationDate(created);
  pdf.setModificationDate(options.edited ? new Date(created.getTime() + 6 * 86_400_000) : created);
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/**
 * What an editor's save does: the original bytes untouched, then a changed object, a new xref section pointing back
 * to the old one (/Prev), and a second `%%EOF`.
 */
export function incrementalUpdate(original: Buffer): Buffer {
  const text = original.toString("latin1");
  const prev = Number(text.match(/startxref\s+(\d+)\s+%%EOF\s*$/)?.[1]);
  const size = Number(text.match(/\/Size\s+(\d+)/)?.[1]);
  const root = text.match(/\/Root\s+(\d+\s+\d+\s+R)/)?.[1];
  const objectOffset = original.length + 1;
  const object = `\n${size} 0 obj\n<< /Producer (PDF Editor) /ModDate (D:20260320120000Z) >>\nendobj\n`;
  const xrefOffset = original.length + object.length;
  const xref = `xref\n${size} 1\n${String(objectOffset).padStart(10, "0")} 00000 n \ntrailer\n<< /Size ${size + 1} /Root ${root} /Info ${size} 0 R /Prev ${prev} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.concat([original, Buffer.from(object + xref, "latin1")]);
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The lines printed on paper and photographed: slightly rotated, blurred, noisy, unevenly lit, JPEG-compressed. */
export async function photographedDocument(r: Rng, lines: string[]): Promise<Buffer> {
  const width = 1240;
  const height = 1754;
  const tint = pick(r, ["#f7f4ec", "#fbfbf8", "#efeadf", "#f2f2f2"]);
  const texts = lines
    .map(
      (line, i) =>
        `<text x="90" y="${170 + i * 62}" font-family="DejaVu Sans, sans-serif" font-size="${i === 0 ? 46 : 30}" ${i === 0 ? 'font-weight="bold"' : ""} fill="#1b1b1b">${escapeXml(line)}</text>`,
    )
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><radialGradient id="light" cx="${30 + r() * 40}%" cy="${30 + r() * 40}%" r="90%">
      <stop offset="0" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="${(0.1 + r() * 0.15).toFixed(2)}"/>
    </radialGradient></defs>
    <rect width="100%" height="100%" fill="${tint}"/>${texts}<rect width="100%" height="100%" fill="url(#light)"/></svg>`;
  const noise = await sharp({
    create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 30 } },
  })
    .png()
    .toBuffer();
  // Composited first, in a pipeline of its own: sharp composites after resizing.
  const paper = await sharp(Buffer.from(svg))
    .composite([{ input: noise, blend: "soft-light" }])
    .png()
    .toBuffer();
  return sharp(paper)
    .rotate((r() - 0.5) * 5, { background: pick(r, ["#6b5b4b", "#444", "#8a7f70"]) })
    .blur(0.3 + r() * 0.7)
    .resize({ width: int(r, 1000, 1400) })
    .jpeg({ quality: int(r, 55, 85) })
    .toBuffer();
}

/** A photographed or scanned page saved as a PDF: an image and no text layer, as scanner apps make them. */
export async function scannedPdf(image: Buffer): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const embedded = await pdf.embedJpg(image);
  pdf.addPage([595, 842]).drawImage(embedded, { x: 0, y: 0, width: 595, height: 842 });
  pdf.setCreator("Scanner");
  pdf.setProducer("Scanner");
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** A site photo: sky, ground and buildings of random shapes and colours, with the grain of a camera sensor. */
export async function sitePhoto(r: Rng, family?: { sky: string; ground: string; horizon: number }): Promise<Buffer> {
  const width = 1024;
  const height = 768;
  const scene = family ?? {
    sky: `hsl(${int(r, 190, 230)},${int(r, 30, 70)}%,${int(r, 55, 80)}%)`,
    ground: `hsl(${int(r, 20, 110)},${int(r, 20, 50)}%,${int(r, 25, 50)}%)`,
    horizon: int(r, 300, 500),
  };
  const shapes: string[] = [];
  for (let i = 0; i < int(r, 5, 12); i++) {
    const w = int(r, 60, 260);
    const h = int(r, 60, 320);
    const x = int(r, -40, width - 40);
    const color = `hsl(${int(r, 0, 360)},${int(r, 10, 60)}%,${int(r, 20, 75)}%)`;
    shapes.push(
      r() < 0.7
        ? `<rect x="${x}" y="${scene.horizon - h + int(r, 0, 60)}" width="${w}" height="${h}" fill="${color}"/>`
        : `<polygon points="${x},${scene.horizon + 40} ${x + w / 2},${scene.horizon - h} ${x + w},${scene.horizon + 40}" fill="${color}"/>`,
    );
  }
  for (let i = 0; i < int(r, 1, 4); i++) {
    shapes.push(
      `<circle cx="${int(r, 0, width)}" cy="${int(r, scene.horizon, height)}" r="${int(r, 20, 90)}" fill="hsl(${int(r, 0, 360)},40%,${int(r, 20, 60)}%)"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="${scene.horizon}" fill="${scene.sky}"/>
    <rect y="${scene.horizon}" width="100%" height="${height - scene.horizon}" fill="${scene.ground}"/>${shapes.join("")}</svg>`;
  const grain = await sharp({
    create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 20 } },
  })
    .png()
    .toBuffer();
  return sharp(Buffer.from(svg))
    .composite([{ input: grain, blend: "soft-light" }])
    .blur(0.6)
    .jpeg({ quality: 90 })
    .toBuffer();
}

export const VARIANTS = ["re-encoded", "resized", "cropped", "recoloured"] as const;
export type Variant = (typeof VARIANTS)[number];

/** The same photo as someone re-submitting it would change it. */
export async function photoVariant(photo: Buffer, variant: Variant, r: Rng): Promise<Buffer> {
  const image = sharp(photo);
  const { width = 1024, height = 768 } = await image.metadata();
  if (variant === "re-encoded") return image.jpeg({ quality: int(r, 35, 60) }).toBuffer();
  if (variant === "resized")
    return image
      .resize({ width: int(r, 320, 640) })
      .png()
      .toBuffer();
  if (variant === "cropped") {
    const left = Math.round(width * (r() * 0.06));
    const top = Math.round(height * (r() * 0.06));
    return image
      .extract({
        left,
        top,
        width: width - left - Math.round(width * r() * 0.04),
        height: height - top - Math.round(height * r() * 0.04),
      })
      .jpeg({ quality: 80 })
      .toBuffer();
  }
  return image
    .modulate({ brightness: 0.85 + r() * 0.3, saturation: 0.6 + r() * 0.8, hue: int(r, -40, 40) })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A camera photo's EXIF: its make and model, the time of capture, and (edited) the editor that saved it last. */
export async function withCameraExif(
  photo: Buffer,
  options: { software?: string; capturedAt?: string } = {},
): Promise<Buffer> {
  return sharp(photo)
    .withExif({
      IFD0: { Make: "Canon", Model: "Canon EOS 90D", Software: options.software ?? "Firmware Version 1.1.1" },
      IFD2: { DateTimeOriginal: options.capturedAt ?? "2026:03:14 10:22:05" },
    })
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** A photo re-saved without any metadata (sharp writes none unless asked). */
export const stripped = (photo: Buffer) => sharp(photo).jpeg({ quality: 88 }).toBuffer();
