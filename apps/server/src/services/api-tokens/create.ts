import type { ApiScope, CreatedApiTokenDto } from "@tranche/domain";
import { eq } from "drizzle-orm";
import { mintApiToken } from "../../auth/api-tokens";
import type { ServiceContext } from "../../context";
import { apiTokens } from "../../db/schema";
import { forbidden } from "../../errors";
import { appendAudit } from "../audit/append";
import { loadApiTokens } from "./dto";

/** An admin creates a scoped token; the answer is the only place the token itself ever appears. */
export async function createApiToken({
  ctx,
  input,
}: {
  ctx: ServiceContext;
  input: { name: string; scopes: ApiScope[] };
}): Promise<CreatedApiTokenDto> {
  if (ctx.actor.role !== "admin") throw forbidden("Only admins can manage API tokens.");
  const minted = mintApiToken();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({
        name: input.name,
        tokenHash: minted.hash,
        prefix: minted.prefix,
        scopes: input.scopes,
        createdBy: ctx.actor.id,
      })
      .returning({ id: apiTokens.id });
    await appendAudit(tx, {
      actorId: ctx.actor.id,
      action: "api_token.created",
      entityType: "api_token",
      entityId: row.id,
      after: { name: input.name, scopes: input.scopes, prefix: minted.prefix },
    });
    const [dto] = await loadApiTokens(tx, eq(apiTokens.id, row.id));
    return { ...dto, token: minted.token };
  });
}
