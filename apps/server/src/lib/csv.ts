import { type Options, stringify } from "csv-stringify/sync";
import type { Context } from "hono";

export type CsvValue = string | number | null | undefined;

/**
 * RFC 4180 with CRLF line ends, a cell holding a line break quoted (the library stops quoting them once the record
 * delimiter is named, unless told to); a text cell a spreadsheet would run as a formula (CSV injection: `=`, `+`,
 * `-`, `@`, a tab or carriage return, or their full-width forms) gets a leading `'`. Numbers are written as they
 * are, so a negative amount stays a number.
 */
const CSV_OPTIONS: Options = { record_delimiter: "windows", quote_record_delimiter: true, escape_formulas: true };

const csvRows = (rows: CsvValue[][]) => stringify(rows, CSV_OPTIONS);

/**
 * A CSV download streamed batch by batch as `batches` yields them, so a large export never sits in memory:
 * UTF-8 with a byte-order mark (spreadsheets read the encoding from it) and a header row.
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
      controller.enqueue(encoder.encode(stringify([header], { ...CSV_OPTIONS, bom: true })));
    },
    async pull(controller) {
      const next = await batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(csvRows(next.value)));
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
