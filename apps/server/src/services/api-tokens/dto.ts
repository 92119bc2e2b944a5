import type { ApiScope, ApiTokenDto } from "@tranche/domain";
import { desc, eq, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { apiTokens, users } from "../../db/schema";

/** API tokens matching `where`, newest first, with who created them. Never the token or its hash. */
export async function loadApiTokens(db: DbOrTx, where?: SQL): Promise<ApiTokenDto[]> {
  const rows = await db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      prefix: apiTokens.prefix,
      scopes: apiTokens.scopes,
      createdById: apiTokens.createdBy,
      createdByName: users.name,
      createdByRole: users.role,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
    })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .where(where)
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as ApiScope[],
    createdBy: row.createdById ? { id: row.createdById, name: row.createdByName ?? "Unknown" } : null,
    createdByName: row.createdById ? (row.createdByName ?? null) : null,
    ownerActive: row.createdByRole === "admin",
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}
