import type { ApiTokenDto } from "@tranche/domain";
import type { ServiceContext } from "../../context";
import { forbidden } from "../../errors";
import { loadApiTokens } from "./dto";

/** Every API token, revoked ones included (admins). */
export async function listApiTokens({ ctx }: { ctx: ServiceContext }): Promise<ApiTokenDto[]> {
  if (ctx.actor.role !== "admin") throw forbidden("Only admins can manage API tokens.");
  return loadApiTokens(ctx.db);
}
