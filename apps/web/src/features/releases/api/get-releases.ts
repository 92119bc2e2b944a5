import { useInfiniteQuery } from "@tanstack/react-query";
import type { Page, ReleaseDto } from "@tranche/domain";
import { api } from "@/lib/api-client";
import { releaseKeys } from "./keys";

/** A project's releases, newest approval first, a page at a time. */
export function useProjectReleases(projectId: string) {
  return useInfiniteQuery({
    queryKey: releaseKeys.list({ projectId }),
    initialPageParam: "",
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ projectId, limit: "25" });
      if (pageParam) params.set("cursor", pageParam);
      return api<Page<ReleaseDto>>(`/releases?${params}`);
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}
