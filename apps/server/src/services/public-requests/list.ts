import { LIST_PAGE_SIZE, type Page, type PublicRequestDto } from "@tranche/domain";
import { desc } from "drizzle-orm";
import { z } from "zod";
import type { ServiceContext } from "../../context";
import { publicRequests } from "../../db/schema";
import { forbidden } from "../../errors";
import { afterCursor, cursorAt, timeIdCursor, toPage } from "../../lib/cursor";
import { pageLimit } from "../../lib/validate";
import { toPublicRequestDto } from "./dto";

export const listPublicRequestsQuery = z.strictObject({
  cursor: timeIdCursor.optional(),
  limit: pageLimit(LIST_PAGE_SIZE),
});

/** Requests from the public forms, newest first (admins only). The cursor is "createdAt_id" of the last item. */
export async function listPublicRequests({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: z.output<typeof listPublicRequestsQuery>;
}): Promise<Page<PublicRequestDto>> {
  if (ctx.actor.role !== "admin") throw forbidden("Only admins can read inbound requests.");
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
      cursorAt: cursorAt(publicRequests.createdAt),
    })
    .from(publicRequests)
    .where(afterCursor(input.cursor, publicRequests.createdAt, publicRequests.id))
    .orderBy(desc(publicRequests.createdAt), desc(publicRequests.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = toPage(rows, input.limit);
  return { items: page.map(toPublicRequestDto), nextCursor };
}
