import { LIST_PAGE_SIZE, listCursor, type Page, type PublicRequestDto, pageLimit } from "@tranche/domain";
import { z } from "zod";
import type { ServiceContext } from "../../context";
import { publicRequests } from "../../db/schema";
import { forbidden } from "../../errors";
import { keyset, keysetPage, newestFirst } from "../../lib/keyset";
import { toPublicRequestDto } from "./dto";

export const listPublicRequestsQuery = z.strictObject({
  cursor: listCursor,
  limit: pageLimit(LIST_PAGE_SIZE),
});

const NEWEST = newestFirst("newest", publicRequests.createdAt, publicRequests.id);

/** Requests from the public forms, newest first, a keyset page at a time (admins only). */
export async function listPublicRequests({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: z.output<typeof listPublicRequestsQuery>;
}): Promise<Page<PublicRequestDto>> {
  if (ctx.actor.role !== "admin") throw forbidden("Only admins can read inbound requests.");
  const page = keyset(NEWEST, input.cursor);
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
      keysetKeys: page.keys,
    })
    .from(publicRequests)
    .where(page.after)
    .orderBy(...page.orderBy)
    .limit(input.limit + 1);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, NEWEST);
  return { items: items.map(toPublicRequestDto), nextCursor };
}
