// Building blocks of the API's response schemas. Every answer the server sends is one of these shapes; the
// server's routes bind them to their status codes and the OpenAPI document is generated from them.
import { z } from "zod";
import { CURRENCIES, ROLES } from "../constants";

/** A JSON object with exactly these fields: an undeclared field in an answer is a drift the tests catch. */
export const shape = z.strictObject;

/** An instant as ISO 8601 text in UTC, e.g. 2026-05-04T09:00:00.000Z. */
export const instant = z.string().meta({ description: "ISO 8601 instant (UTC)." });
/** A calendar day, YYYY-MM-DD. */
export const day = z.string().meta({ description: "Calendar day, YYYY-MM-DD." });
/** An amount of money: a JSON number in the currency's major unit, at most two decimals (12500000.5). */
export const amount = z.number().meta({ description: "Amount in the currency's major unit (two decimals at most)." });
export const id = z.string().meta({ description: "A uuid." });
export const currency = z.enum(CURRENCIES);
export const role = z.enum(ROLES);

export const errorBodySchema = shape({
  error: shape({
    code: z.string().meta({ description: "Stable, machine-readable: see the list in the API description." }),
    message: z.string().meta({ description: "A sentence for people; show it as it is." }),
    details: z.unknown().optional().meta({ description: "For invalid_input: field → message." }),
  }),
}).meta({ id: "Error" });
export type ApiErrorBody = z.infer<typeof errorBodySchema>;

/** One page of a keyset list: `nextCursor` fetches the next (null on the last page). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  shape({ items: z.array(item), nextCursor: z.string().nullable() });
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** `{ items }` without paging: the whole (short) list. */
export const itemsOf = <T extends z.ZodType>(item: T) => shape({ items: z.array(item) });

/** How many items a list holds under its filters and search, in all and per status (its status tabs). */
export const statusCountsOf = <const S extends readonly [string, ...string[]]>(statuses: S) =>
  shape({ total: z.number().int(), byStatus: z.record(z.enum(statuses), z.number().int()) });
export interface StatusCountsDto<S extends string> {
  total: number;
  byStatus: Record<S, number>;
}

/** Money summed per currency: projects keep their own currency and amounts are never converted. */
export const moneyTotalSchema = shape({ currency, amount });
export type MoneyTotal = z.infer<typeof moneyTotalSchema>;

export const personRefSchema = shape({ id, name: z.string() });
