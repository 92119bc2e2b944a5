import { type AnyColumn, type SQL, sql } from "drizzle-orm";
import { AppError } from "../errors";
import { isRealDateText, isRealTimestampText } from "./timestamp-text";

// Keyset (cursor) pagination, the one way every list pages (and every export reads in batches). A sort is a few
// key expressions plus the row's id, all in one direction, so "after the cursor" is one row comparison an index on
// the same columns can answer. The cursor is opaque to clients: base64url of JSON { s: sort name, k: the last
// row's keys as text }, so a cursor from one sort is refused by another instead of silently skipping rows, and a
// key is compared as the text PostgreSQL printed (a timestamp to the microsecond, never rounded to milliseconds).
// The `cursor` query parameter itself is checked by `listCursor` (packages/domain); a malformed one answers 400
// with `{ cursor: "Cursor is not valid." }`.

export type KeyType = "text" | "timestamptz" | "date" | "numeric" | "bigint" | "uuid";

export interface SortSpec {
  /** The sort's name, as the `sort` query parameter spells it. */
  name: string;
  direction: "asc" | "desc";
  /** Key expressions, never null (coalesce a nullable one), the last one unique (the id). */
  keys: { expr: SQL | AnyColumn; type: KeyType }[];
}

const invalidCursor = () => new AppError("invalid_input", "Cursor is not valid.", { cursor: "Cursor is not valid." });

function decode(cursor: string, spec: SortSpec): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  const { s, k } = (parsed ?? {}) as { s?: unknown; k?: unknown };
  const values = Array.isArray(k) ? k : [];
  if (
    s !== spec.name ||
    values.length !== spec.keys.length ||
    !values.every((v) => typeof v === "string" && v.length <= 1000 && !v.includes("\u0000"))
  )
    throw invalidCursor();
  spec.keys.forEach((key, i) => {
    if (!keyChecks[key.type](values[i] as string)) throw invalidCursor();
  });
  return values as string[];
}

/** Whether a cursor's key text can be cast to the key's type: PostgreSQL would answer a refused cast with a 500. */
const keyChecks: Record<KeyType, (value: string) => boolean> = {
  // Any text but an unpaired surrogate (NUL is refused above).
  text: (value) => !/\p{Cs}/u.test(value),
  timestamptz: isRealTimestampText,
  date: isRealDateText,
  numeric: (value) => /^-?\d{1,20}(\.\d{1,6})?$/.test(value),
  bigint: (value) => /^-?\d{1,18}$/.test(value),
  uuid: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
};

const cast = (value: string, type: KeyType) => sql`${value}::${sql.raw(type)}`;

/** A list newest first: its time column, then its id. */
export function newestFirst(name: string, createdAt: AnyColumn, id: AnyColumn): SortSpec {
  return {
    name,
    direction: "desc",
    keys: [
      { expr: createdAt, type: "timestamptz" },
      { expr: id, type: "uuid" },
    ],
  };
}

/** A name to sort by as people read it ("Site 2" before "Site 10"): the ICU collation of migration 0041. */
export const naturalOrder = (name: AnyColumn) => sql`${name} collate natural_order`;

/**
 * A list by name, A to Z in natural order: numbers inside names compare by value ("Project 2" before "Project 10"),
 * under the ICU collation of migration 0041. The key carries the collation, so the cursor comparison (`after`,
 * where an explicit collation wins over the cursor value's default one) follows the same order as ORDER BY, and the
 * `*_name_id_idx` indexes, built in that collation, still answer both.
 */
export function byName(nameColumn: AnyColumn, id: AnyColumn): SortSpec {
  return {
    name: "name",
    direction: "asc",
    keys: [
      { expr: naturalOrder(nameColumn), type: "text" },
      { expr: id, type: "uuid" },
    ],
  };
}

/** A list earliest due first: its due date, then its id. */
export function earliestDue(dueDate: AnyColumn, id: AnyColumn): SortSpec {
  return {
    name: "due",
    direction: "asc",
    keys: [
      { expr: dueDate, type: "date" },
      { expr: id, type: "uuid" },
    ],
  };
}

export type Keyset = ReturnType<typeof keyset>;

/** The pieces of a keyset query: the keys to select beside each row, the order, and the condition after `cursor`. */
export function keyset(spec: SortSpec, cursor: string | undefined) {
  const op = spec.direction === "asc" ? sql`>` : sql`<`;
  const dir = spec.direction === "asc" ? sql` asc` : sql` desc`;
  const values = cursor ? decode(cursor, spec) : null;
  return {
    /** Select as `keysetKeys`: the row's keys as text, for the next cursor. */
    keys: sql<string[]>`array[${sql.join(
      spec.keys.map((k) => sql`(${k.expr})::text`),
      sql`, `,
    )}]`,
    orderBy: spec.keys.map((k) => sql`${k.expr}${dir}`),
    after: values
      ? sql`(${sql.join(
          spec.keys.map((k) => k.expr),
          sql`, `,
        )}) ${op} (${sql.join(
          spec.keys.map((k, i) => cast(values[i], k.type)),
          sql`, `,
        )})`
      : undefined,
  };
}

/** One page of `limit + 1` fetched rows, with the cursor of its last row when more follow. */
export function keysetPage<R extends { keysetKeys: string[] }>(rows: R[], limit: number, spec: SortSpec) {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit && last
      ? Buffer.from(JSON.stringify({ s: spec.name, k: last.keysetKeys }), "utf8").toString("base64url")
      : null;
  return { page, nextCursor };
}

/**
 * A whole set read in `spec`'s order, `size` rows at a time (the CSV exports: one batch in memory, nothing skipped
 * or repeated). `read` runs the query with the page's keys, order and condition, and `limit`.
 */
export async function* keysetBatches<R extends { keysetKeys: string[] }>(
  spec: SortSpec,
  size: number,
  read: (page: Keyset & { limit: number }) => Promise<R[]>,
): AsyncGenerator<R[]> {
  let cursor: string | undefined;
  do {
    const { page, nextCursor } = keysetPage(await read({ ...keyset(spec, cursor), limit: size + 1 }), size, spec);
    if (page.length > 0) yield page;
    cursor = nextCursor ?? undefined;
  } while (cursor);
}
