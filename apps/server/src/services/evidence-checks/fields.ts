// Reads the fields a verifier compares from a document's text: what kind of document it is, who issued it, its
// number and date, and (invoices) its total and currency. The text comes from a PDF's text layer or from OCR of a
// scan or photo, so the patterns forgive what OCR gets wrong: stray spaces, `O` for `0`, a colon read as a dot.
import type { DocumentKind, ExtractedDocumentDto } from "@tranche/domain";

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

const SYMBOLS: Record<string, string> = { $: "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR" };
const CURRENCIES = ["USD", "EUR", "GBP", "CHF", "JPY", "CAD", "AUD", "INR", "KES", "NGN", "ZAR", "BRL", "MXN"];

/** The kind, from the title near the top first (a report may mention a certificate further down). */
function kindOf(lines: string[]): DocumentKind {
  const test = (text: string): DocumentKind | null => {
    if (/inspection\s*report|report\s*of\s*inspection|site\s*inspection/i.test(text)) return "inspection_report";
    if (/certificate|certification\s*of/i.test(text)) return "certificate";
    if (/invoice|bill\s*to|amount\s*due/i.test(text)) return "invoice";
    return null;
  };
  return test(lines.slice(0, 4).join(" ")) ?? test(lines.join(" ")) ?? "other";
}

/** A line's value after its label, e.g. "Invoice No: INV-1" → "INV-1". */
function labelled(lines: string[], label: RegExp): string | null {
  for (const line of lines) {
    const match = line.match(label);
    if (match) {
      const value = line
        .slice((match.index ?? 0) + match[0].length)
        .replace(/^[\s:.#\-–—|]+/, "")
        .trim();
      if (value) return value;
    }
  }
  return null;
}

const NUMBER_LABEL =
  /\b(?:invoice|certificate|cert\.?|report|document|doc\.?|reference|ref\.?)\s*(?:no\.?|n[o0°º]\.?|number|num\.?|#|id)(?=[\s:.#]|$)/i;

function documentNumberOf(lines: string[]): string | null {
  const value = labelled(lines, NUMBER_LABEL);
  if (!value) return null;
  // The first token that holds a digit: "INV-2026-0042 (copy)" → "INV-2026-0042".
  const token = value.split(/\s+/).find((t) => /\d/.test(t));
  return token ? token.replace(/[.,;:]+$/, "").toUpperCase() : null;
}

/** Compared across files: case, separators and OCR's letter-for-digit slips do not make a new number. */
export function documentKey(kind: DocumentKind, number: string): string {
  const normal = number
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  return `${kind}:${normal}`;
}

const pad = (n: number) => String(n).padStart(2, "0");
function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1990 || year > 2100 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** A date in any of the ways documents write one; day-first for slashed dates unless that is impossible. */
export function parseDate(text: string): string | null {
  const t = text.replace(/\s+/g, " ");
  let m = t.match(/\b(\d{4})\s?[-/.]\s?(\d{1,2})\s?[-/.]\s?(\d{1,2})\b/);
  if (m) return isoDate(+m[1], +m[2], +m[3]);
  m = t.match(/\b(\d{1,2})\s?[/.-]\s?(\d{1,2})\s?[/.-]\s?(\d{4})\b/);
  if (m) return isoDate(+m[3], +m[2], +m[1]) ?? isoDate(+m[3], +m[1], +m[2]);
  const month = (name: string) => MONTHS.findIndex((full) => full.startsWith(name.toLowerCase().slice(0, 3))) + 1;
  m = t.match(/\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b/);
  if (m && month(m[2]) > 0) return isoDate(+m[3], month(m[2]), +m[1]);
  m = t.match(/\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/);
  if (m && month(m[1]) > 0) return isoDate(+m[3], month(m[1]), +m[2]);
  return null;
}

const DATE_LABEL =
  /\b(?:date\s*of\s*issue|issue\s*date|issued\s*on|invoice\s*date|date\s*issued|inspection\s*date|date\s*of\s*inspection|dated|date)\b/i;

function issueDateOf(lines: string[]): string | null {
  for (const line of lines) {
    const match = line.match(DATE_LABEL);
    if (!match) continue;
    // "Due date" is not when it was issued.
    if (/due\s*date|valid\s*until|expir/i.test(line)) continue;
    const date = parseDate(line.slice(match.index ?? 0));
    if (date) return date;
  }
  return null;
}

const ISSUER_LABEL =
  /\b(?:issued\s*by|issuer|from|supplier|seller|vendor|contractor|inspector|inspected\s*by)\b\s*[:.]/i;
const COMPANY = /\b(?:ltd|limited|llc|inc|gmbh|s\.?a\.?|plc|co\.|corp|company|group|engineering|services)\b\.?/i;

function issuerOf(lines: string[]): string | null {
  const value = labelled(lines, ISSUER_LABEL);
  if (value) return value.replace(/\s{2,}.*$/, "").trim();
  const company = lines.slice(0, 8).find((line) => COMPANY.test(line) && !/\bto\b\s*[:.]/i.test(line));
  return company?.trim() ?? null;
}

/** "125,400.00", "125.400,00", "125 400", "125400" → 125400. */
export function parseAmount(text: string): number | null {
  const cleaned = text.replace(/[Oo](?=[\d.,])|(?<=[\d.,])[Oo]/g, "0").replace(/\s(?=\d{3}\b)/g, "");
  const m = cleaned.match(/\d[\d.,]*/);
  if (!m) return null;
  let digits = m[0].replace(/[.,]$/, "");
  const lastSep = Math.max(digits.lastIndexOf("."), digits.lastIndexOf(","));
  // A separator followed by exactly two digits is the decimal point, whichever it is.
  if (lastSep >= 0 && digits.length - lastSep - 1 === 2) {
    digits = `${digits.slice(0, lastSep).replace(/[.,]/g, "")}.${digits.slice(lastSep + 1)}`;
  } else {
    digits = digits.replace(/[.,]/g, "");
  }
  const value = Number(digits);
  return Number.isFinite(value) ? value : null;
}

function currencyIn(text: string): string | null {
  const code = text.toUpperCase().match(new RegExp(`\\b(${CURRENCIES.join("|")})\\b`));
  if (code) return code[1];
  const symbol = Object.keys(SYMBOLS).find((s) => text.includes(s));
  return symbol ? SYMBOLS[symbol] : null;
}

const TOTAL_LABEL = /\b(?:grand\s*total|total\s*due|total\s*amount|amount\s*due|total\s*payable|total)\b/i;

function totalOf(lines: string[]): { total: number | null; currency: string | null } {
  // The last "total" line that is not a subtotal or a tax line: the grand total comes last.
  const candidates = lines.filter((line) => TOTAL_LABEL.test(line) && !/sub\s*-?\s*total|vat|tax\b/i.test(line));
  for (const line of candidates.reverse()) {
    const match = line.match(TOTAL_LABEL);
    const rest = line.slice((match?.index ?? 0) + (match?.[0].length ?? 0));
    const total = parseAmount(rest);
    if (total !== null) return { total, currency: currencyIn(rest) ?? currencyIn(lines.join(" ")) };
  }
  return { total: null, currency: currencyIn(lines.join(" ")) };
}

/** The fields of a document's text, or null when the text does not read as a document at all. */
export function extractFields(text: string): ExtractedDocumentDto | null {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  if (lines.length === 0) return null;
  const kind = kindOf(lines);
  const documentNumber = documentNumberOf(lines);
  const issueDate = issueDateOf(lines);
  if (kind === "other" && !documentNumber && !issueDate) return null;
  const money = kind === "invoice" ? totalOf(lines) : { total: null, currency: null };
  return {
    kind,
    issuer: issuerOf(lines),
    documentNumber,
    issueDate,
    total: money.total,
    currency: money.currency,
  };
}
