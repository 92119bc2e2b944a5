// The release certificate as a one-document PDF (pdfkit), with a QR code (qrcode) that opens /verify.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  type CertificateCheckDto,
  type CertificateFacts,
  capturedByWords,
  formatCoordinates,
  formatDistance,
} from "@tranche/domain";
import { create as createFont, type Font } from "fontkit";
import PDFDocument from "pdfkit";
import QRCode from "qrcode";

type Checkpoint = Extract<CertificateCheckDto, { valid: true }>["checkpoint"];

export const verifyUrl = (publicUrl: string, releaseId: string, fingerprint: string) =>
  `${publicUrl.replace(/\/$/, "")}/verify?release=${releaseId}&hash=${fingerprint}`;

const INK = "#0f172a";
const MUTED = "#64748b";
const RULE = "#e2e8f0";
const FLAG = "#b45309";

// pdfkit's built-in Helvetica has only Latin-1 glyphs; DejaVu Sans, embedded and subset, prints Latin, Greek, Cyrillic
// and currency signs as written (docs/decisions/040). Resolved as a package, so the path holds from src/ and dist/.
const SANS = "Sans";
const SANS_BOLD = "Sans-Bold";
// Read and parsed on the first certificate rather than at start-up (the two files are 1.4 MB), then kept: parsed
// afresh for each document, their tables took about 120 ms of the event loop per certificate.
let fonts: { regular: Font; bold: Font } | undefined;
const certificateFonts = () => {
  const resolve = createRequire(import.meta.url).resolve;
  const parse = (file: string) => createFont(readFileSync(resolve(`dejavu-fonts-ttf/ttf/${file}`)));
  fonts ??= { regular: parse("DejaVuSans.ttf"), bold: parse("DejaVuSans-Bold.ttf") };
  return fonts;
};
// pdfkit's types name only files and bytes as a font's source; its code also takes a parsed font.
const parsed = (font: Font) => font as unknown as PDFKit.Mixins.PDFFontSource;

const day = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }) + " UTC";

export async function renderCertificate(input: {
  facts: CertificateFacts;
  fingerprint: string;
  checkpoint: Checkpoint;
  publicUrl: string;
}): Promise<Buffer> {
  const { facts, fingerprint, checkpoint } = input;
  const link = verifyUrl(input.publicUrl, facts.release.id, fingerprint);
  const qr = await QRCode.toBuffer(link, { margin: 1, width: 240, errorCorrectionLevel: "M" });

  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    info: {
      Title: `Release certificate — ${facts.milestone.title}`,
      Author: "Tranche",
      Subject: `Release ${facts.release.id}`,
    },
  });
  const { regular, bold } = certificateFonts();
  doc.registerFont(SANS, parsed(regular));
  doc.registerFont(SANS_BOLD, parsed(bold));
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  const width = doc.page.width - 100;

  const heading = (text: string) => {
    doc.moveDown(0.8).font(SANS_BOLD).fontSize(11).fillColor(INK).text(text);
    const y = doc.y + 2;
    doc
      .moveTo(50, y)
      .lineTo(50 + width, y)
      .strokeColor(RULE)
      .stroke();
    doc.moveDown(0.4);
  };
  const row = (label: string, value: string) => {
    doc.font(SANS).fontSize(9).fillColor(MUTED).text(label, { continued: false });
    doc.font(SANS).fontSize(10.5).fillColor(INK).text(value).moveDown(0.3);
  };

  doc
    .font(SANS_BOLD)
    .fontSize(20)
    .fillColor(INK)
    .text("Release certificate", 50, 50, { width: width - 130 });
  doc
    .font(SANS)
    .fontSize(10)
    .fillColor(MUTED)
    .text("Issued by Tranche: capital released only after independent verification.", { width: width - 130 });
  doc.image(qr, 50 + width - 110, 45, { width: 110 });
  doc
    .font(SANS)
    .fontSize(7)
    .fillColor(MUTED)
    .text("Scan to check this certificate", 50 + width - 120, 158, { width: 130, align: "center" });
  doc.x = 50;
  doc.y = 180;

  heading("Release");
  const amount = Number(facts.release.amount).toLocaleString("en-US", {
    style: "currency",
    currency: facts.release.currency,
    minimumFractionDigits: 2,
  });
  row("Amount", `${amount} ${facts.release.currency}`);
  row("Approved", day(facts.release.approvedAt));
  row("Release id", facts.release.id);

  heading("Project and milestone");
  row("Project", `${facts.project.name}${facts.project.location ? ` · ${facts.project.location}` : ""}`);
  row("Milestone", `${facts.milestone.title} (due ${facts.milestone.dueDate})`);
  row(
    "Beneficiary",
    `${facts.beneficiary.name}${facts.beneficiary.organization ? `, ${facts.beneficiary.organization}` : ""}`,
  );

  heading("Verification");
  row("Release rule", facts.policy);
  if (facts.partial) {
    const of = Number(facts.partial.of).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    row("Partial release", `${facts.partial.share}% of ${of} ${facts.release.currency} then open`);
    if (facts.partial.reason) row("Reason", facts.partial.reason);
  }
  for (const approval of facts.approvals) {
    const who = `${approval.verifier.name}${approval.verifier.organization ? `, ${approval.verifier.organization}` : ""}`;
    row(
      approval.decision === "countersigned" ? "Countersigned by" : "Approved by",
      `${who} on ${day(approval.decidedAt)}`,
    );
  }

  heading(`Evidence (${facts.evidence.length} ${facts.evidence.length === 1 ? "file" : "files"}, SHA-256)`);
  if (facts.evidence.length === 0) row("Files", "No evidence files were on the milestone at approval.");
  for (const file of facts.evidence) {
    doc
      .font(SANS)
      .fontSize(9.5)
      .fillColor(INK)
      .text(`${file.name} (${file.size.toLocaleString("en-US")} bytes)`);
    doc.font("Courier").fontSize(8).fillColor(MUTED).text(file.sha256);
    if (file.capture) {
      const { by, latitude, longitude, accuracy, capturedAt, distanceToSiteM } = file.capture;
      const parts = [
        `${capturedByWords(by)} ${day(capturedAt)} at ${formatCoordinates({ latitude, longitude })}`,
        accuracy === null ? null : `±${formatDistance(accuracy)}`,
        distanceToSiteM === null ? null : `${formatDistance(distanceToSiteM)} from the site`,
      ];
      doc.font(SANS).fontSize(8.5).fillColor(MUTED).text(parts.filter(Boolean).join(" · "));
    }
    for (const flag of file.flags ?? []) {
      doc
        .font(SANS)
        .fontSize(8.5)
        .fillColor(flag.dismissed ? MUTED : FLAG)
        .text(`Flag (${flag.severity}${flag.dismissed ? ", dismissed" : ""}): ${flag.message}`);
    }
    doc.moveDown(0.3);
  }

  heading("Tamper evidence");
  if (facts.auditEvent) {
    row("Audit event", `#${facts.auditEvent.id}, recorded ${day(facts.auditEvent.recordedAt)}`);
    doc.font("Courier").fontSize(8).fillColor(MUTED).text(facts.auditEvent.hash).moveDown(0.3);
  }
  if (checkpoint) {
    row(
      "Signed checkpoint",
      `#${checkpoint.id} covers events up to #${checkpoint.lastEventId}, signed ${day(checkpoint.signedAt)} with key ${checkpoint.keyId} (Ed25519; public key at /api/audit/public-key)`,
    );
    doc.font("Courier").fontSize(7).fillColor(MUTED).text(`head ${checkpoint.headHash}`);
    doc.text(`signature ${checkpoint.signature}`).moveDown(0.3);
  } else {
    row("Signed checkpoint", "Not yet signed: the next checkpoint covers this event within minutes.");
  }
  row("Certificate fingerprint (SHA-256 of the facts above)", "");
  doc.font("Courier").fontSize(8).fillColor(INK).text(fingerprint).moveDown(0.3);
  row("Check it at", link);
  row("Issued", day(facts.issuedAt));

  doc.end();
  return done;
}
