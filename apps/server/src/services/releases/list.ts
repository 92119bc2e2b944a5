import type { Page, ReleaseDto, ReleaseStatus } from "@tranche/domain";
import { and, eq } from "drizzle-orm";
import type { CallerContext } from "../../context";
import { disbursements } from "../../db/schema";
import { notFound } from "../../errors";
import { keyset, keysetPage, newestFirst } from "../../lib/keyset";
import { loadRelease, selectReleases, toReleaseDto, visibleReleases } from "./dto";

const NEWEST = newestFirst("newest", disbursements.releasedAt, disbursements.id);

/** Releases the caller may see, newest approval first, a keyset page at a time. */
export async function listReleases(
  ctx: CallerContext,
  input: { status?: ReleaseStatus; projectId?: string; cursor?: string; limit: number },
): Promise<Page<ReleaseDto>> {
  const page = keyset(NEWEST, input.cursor);
  const rows = await selectReleases(ctx.db, { keysetKeys: page.keys })
    .where(
      and(
        visibleReleases(ctx.caller),
        input.status ? eq(disbursements.status, input.status) : undefined,
        input.projectId ? eq(disbursements.projectId, input.projectId) : undefined,
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(input.limit + 1);
  const { page: items, nextCursor } = keysetPage(rows, input.limit, NEWEST);
  return { items: items.map((row) => toReleaseDto(row, ctx.caller)), nextCursor };
}

/** One release the caller may see, else 404. */
export async function getRelease(ctx: CallerContext, releaseId: string): Promise<ReleaseDto> {
  const where = and(eq(disbursements.id, releaseId), visibleReleases(ctx.caller));
  const release = where && (await loadRelease(ctx.db, where, ctx.caller));
  if (!release) throw notFound("Release");
  return release;
}
