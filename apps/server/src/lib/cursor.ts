import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { isRealTimestampText } from "./timestamp-text";

// Keyset pagination, newest first: the cursor is "createdAt_id" of the last item, the timestamp kept to the
// microsecond as stored (a millisecond cursor would skip rows).

const CURSOR =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The cursor's timestamp names a real instant PostgreSQL can hold (2024-02-30, 99:99 or year 0 are refused). */
function isRealInstant(cursor: string): boolean {
  const match = CURSOR.exec(cursor);
  return match !== null && isRealTimestampText(match[1]);
}

export const timeIdCursor = z.string().refine(isRealInstant, { error: "Cursor is not valid." });

/** The cursor text of a row, selected beside it. */
export const cursorAt = (createdAt: AnyColumn) =>
  sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows after the cursor in (createdAt desc, id desc) order. */
export function afterCursor(cursor: string | undefined, createdAt: AnyColumn, id: AnyColumn): SQL | undefined {
  if (!cursor) return undefined;
  const [at, rowId] = cursor.split("_");
  return sql`(${createdAt}, ${id}) < (${at}::timestamptz, ${rowId.toLowerCase()}::uuid)`;
}

/** One page of `limit + 1` fetched rows, with the next cursor when there are more. */
export function toPage<R extends { cursorAt: string; id: string }>(rows: R[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { page, nextCursor: rows.length > limit ? `${last.cursorAt}_${last.id}` : null };
}
