import type { ReportSort, VerificationReportDto } from "@tranche/domain";
import { pagedQuery, usePagedList } from "@/lib/paged-query";
import { verificationKeys } from "./keys";

export function useReports(params: { status?: "verified" | "rejected"; sort?: ReportSort } = {}) {
  return usePagedList(pagedQuery<VerificationReportDto>(verificationKeys.reports(), "/reports", { ...params }));
}
