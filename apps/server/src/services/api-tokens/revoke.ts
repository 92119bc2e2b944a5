import { eq } from "drizzle-orm";
import type { ServiceContext } from "../../context";
import { apiTokens } from "../../db/schema";
import { forbidden, notFound } from "../../errors";
import { appendAudit } from "../audit/append";

/** An admin revokes a token: it answers 401 from then on. Revoking twice changes nothing. */
export async function revokeApiToken({ ctx, tokenId }: { ctx: ServiceContext; tokenId: string }): Promise<void> {
  if (ctx.actor.role !== "admin") throw forbidden("Only admins can manage API tokens.");
  await ctx.db.transaction(async (tx) => {
    const [token] = await tx.select().from(apiTokens).where(eq(apiTokens.id, tokenId)).for("update");
    if (!token) throw notFound("API token");
    if (token.revokedAt) return;
    await tx.update(apiTokens).set({ revokedAt: new Date(), revokedBy: ctx.actor.id }).where(eq(apiTokens.id, tokenId));
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "api_token.revoked",
      entityType: "api_token",
      entityId: tokenId,
      before: { name: token.name, scopes: token.scopes, revoked: false },
      after: { name: token.name, scopes: token.scopes, revoked: true },
    });
  });
}
