import type { StatusCountsDto } from "@tranche/domain";

/** Counts per status from grouped rows, every status present (0 when no row names it). */
export function statusCounts<S extends string>(
  statuses: readonly S[],
  rows: { status: string; count: number | string }[],
): StatusCountsDto<S> {
  const byStatus = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
  for (const row of rows) if (row.status in byStatus) byStatus[row.status as S] = Number(row.count);
  return { total: statuses.reduce((n, status) => n + byStatus[status], 0), byStatus };
}
