import type { VerificationReportDto } from "@tranche/domain";
import { pagedQuery, usePagedList } from "@/lib/paged-query";
import { verificationKeys } from "./keys";

export function useReports(params: { status?: "verified" | "rejected" } = {}) {
  return usePagedList(pagedQuery<VerificationReportDto>(verificationKeys.reports(), "/reports", { ...params }));
}
