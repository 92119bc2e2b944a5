import type { Page, PublicRequestDto } from "@tranche/domain";
import { desc, sql } from "drizzle-orm";
import { z } from "zod";
import type { ServiceContext } from "../../context";
import { publicRequests } from "../../db/schema";
import { forbidden } from "../../errors";
import { pageLimit } from "../../lib/validate";
import { toPublicRequestDto } from "./dto";

/** The cursor's timestamp names a real instant (its milliseconds survive a round trip through Date). */
function isRealInstant(cursor: string): boolean {
  const millis = `${cursor.slice(0, 23)}Z`;
  const at = new Date(millis);
  return !Number.isNaN(at.getTime()) && at.toISOString() === millis;
}

export const listPublicRequestsQuery = z.strictObject({
  cursor: z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
      {
        error: "Cursor is not valid.",
      },
    )
    // The pattern admits 2024-13-45T99:99:99; only a real instant may reach the ::timestamptz cast.
    .refine(isRealInstant, { error: "Cursor is not valid." })
    .optional(),
  limit: pageLimit(50),
});

// The cursor keeps the timestamp to the microsecond, as stored: a millisecond cursor would skip rows.
const cursorAt = sql<string>`to_char(${publicRequests.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Requests from the public forms, newest first (admins only). The cursor is "createdAt_id" of the last item. */
export async function listPublicRequests({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: z.output<typeof listPublicRequestsQuery>;
}): Promise<Page<PublicRequestDto>> {
  if (ctx.actor.role !== "admin") throw forbidden("Only admins can read inbound requests.");
  const [at, id] = input.cursor?.split("_") ?? [];
  const after = input.cursor
    ? sql`(${publicRequests.createdAt}, ${publicRequests.id}) < (${at}::timestamptz, ${id.toLowerCase()}::uuid)`
    : undefined;
  const rows = await ctx.db
    .select({
      id: publicRequests.id,
      kind: publicRequests.kind,
      email: publicRequests.email,
      name: publicRequests.name,
      organization: publicRequests.organization,
      message: publicRequests.message,
      source: publicRequests.source,
      createdAt: publicRequests.createdAt,
      cursorAt,
    })
    .from(publicRequests)
    .where(after)
    .orderBy(desc(publicRequests.createdAt), desc(publicRequests.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toPublicRequestDto),
    nextCursor: rows.length > input.limit ? `${last.cursorAt}_${last.id}` : null,
  };
}
