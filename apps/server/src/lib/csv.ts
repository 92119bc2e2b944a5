import type { Context } from "hono";

/** A spreadsheet runs a cell starting with one of these as a formula (CSV injection): such text gets a leading '. */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | null | undefined;

/** One cell: text that could run as a formula is neutralised; quotes, commas and line breaks are quoted. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: CsvValue[]) => `${cells.map(csvCell).join(",")}\r\n`;

/**
 * A CSV download streamed batch by batch as `batches` yields them, so a large export never sits in memory:
 * UTF-8 with a byte-order mark (spreadsheets read the encoding from it), a header row, CRLF line ends (RFC 4180).
 */
export function csvResponse(
  c: Context,
  filename: string,
  header: string[],
  batches: AsyncGenerator<CsvValue[][]>,
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(header)}`));
    },
    async pull(controller) {
      const next = await batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map(csvLine).join("")));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  c.header("Content-Type", "text/csv; charset=utf-8");
  c.header("Content-Disposition", `attachment; filename="${filename}"`);
  return c.body(body);
}

/** `name-2026-11-23.csv`: today's date (UTC) in the file name, so repeated exports do not overwrite each other. */
export const csvFilename = (name: string) => `${name}-${new Date().toISOString().slice(0, 10)}.csv`;
