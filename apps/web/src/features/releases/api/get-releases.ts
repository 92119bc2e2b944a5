import type { ReleaseDto } from "@tranche/domain";
import { pagedQuery, usePagedList } from "@/lib/paged-query";
import { releaseKeys } from "./keys";

/** A project's releases, newest approval first, a page at a time. */
export function useProjectReleases(projectId: string) {
  return usePagedList(pagedQuery<ReleaseDto>(releaseKeys.list(), "/releases", { projectId, limit: "25" }));
}
