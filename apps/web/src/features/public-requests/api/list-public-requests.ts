import type { PublicRequestDto } from "@tranche/domain";
import { pagedQuery, usePagedList } from "@/lib/paged-query";

export const publicRequestKeys = { all: ["public-requests"] as const };

/** Inbound requests from the public forms, newest first, a page at a time (admins only). */
export function usePublicRequests() {
  return usePagedList(pagedQuery<PublicRequestDto>(publicRequestKeys.all, "/public-requests", { limit: "50" }));
}
