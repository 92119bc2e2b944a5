import type { PublicRequestDto } from "@tranche/domain";
import type { publicRequests } from "../../db/schema";

export type PublicRequestRow = typeof publicRequests.$inferSelect;

/** What admins see: the request, without the sender's address (kept for abuse checks only). */
export function toPublicRequestDto(row: Omit<PublicRequestRow, "ip">): PublicRequestDto {
  return {
    id: row.id,
    kind: row.kind as PublicRequestDto["kind"],
    email: row.email,
    name: row.name,
    organization: row.organization,
    message: row.message,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
  };
}
