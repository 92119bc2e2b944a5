import type { Page, ReleaseDto, ReleaseStatus } from "@tranche/domain";
import { and, desc, eq } from "drizzle-orm";
import type { CallerContext } from "../../context";
import { disbursements } from "../../db/schema";
import { notFound } from "../../errors";
import { afterCursor, toPage } from "../../lib/cursor";
import { loadRelease, selectReleases, toReleaseDto, visibleReleases } from "./dto";

/** Releases the caller may see, newest approval first; the cursor is "approvedAt_id" of the last item. */
export async function listReleases(
  ctx: CallerContext,
  input: { status?: ReleaseStatus; projectId?: string; cursor?: string; limit: number },
): Promise<Page<ReleaseDto>> {
  const rows = await selectReleases(ctx.db)
    .where(
      and(
        visibleReleases(ctx.caller),
        input.status ? eq(disbursements.status, input.status) : undefined,
        input.projectId ? eq(disbursements.projectId, input.projectId) : undefined,
        afterCursor(input.cursor, disbursements.releasedAt, disbursements.id),
      ),
    )
    .orderBy(desc(disbursements.releasedAt), desc(disbursements.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = toPage(rows, input.limit);
  return { items: page.map((row) => toReleaseDto(row, ctx.caller)), nextCursor };
}

/** One release the caller may see, else 404. */
export async function getRelease(ctx: CallerContext, releaseId: string): Promise<ReleaseDto> {
  const where = and(eq(disbursements.id, releaseId), visibleReleases(ctx.caller));
  const release = where && (await loadRelease(ctx.db, where, ctx.caller));
  if (!release) throw notFound("Release");
  return release;
}
