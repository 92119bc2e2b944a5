import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { z } from "zod";

// Keyset pagination, newest first: the cursor is "createdAt_id" of the last item, the timestamp kept to the
// microsecond as stored (a millisecond cursor would skip rows).

/** The cursor's timestamp names a real instant (its milliseconds survive a round trip through Date). */
function isRealInstant(cursor: string): boolean {
  const millis = `${cursor.slice(0, 23)}Z`;
  const at = new Date(millis);
  return !Number.isNaN(at.getTime()) && at.toISOString() === millis;
}

export const timeIdCursor = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    {
      error: "Cursor is not valid.",
    },
  )
  // The pattern admits 2024-13-45T99:99:99; only a real instant may reach the ::timestamptz cast.
  .refine(isRealInstant, { error: "Cursor is not valid." });

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
