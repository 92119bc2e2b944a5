import type { ReportSort } from "@tranche/domain";
import { PagedListState } from "@/components/paged-list-state";
import { SelectFilter } from "@/components/select-filter";
import { useUrlState } from "@/lib/use-url-state";
import { useReports } from "../api/get-reports";
import { ReportsTable } from "./reports-table";

const SORTS: { value: ReportSort; label: string }[] = [
  { value: "newest", label: "Newest first" },
  { value: "oldest", label: "Oldest first" },
];

const DECISIONS = [
  { value: "all", label: "All decisions" },
  { value: "verified", label: "Verified" },
  { value: "rejected", label: "Rejected" },
];

/**
 * Submitted verification reports the caller may see, a page at a time; the decision filter and the order (newest or
 * oldest first) are in the URL.
 */
export function ReportsList() {
  const [view, setView] = useUrlState({ decision: "all", sort: "newest" });
  const status = view.decision === "verified" || view.decision === "rejected" ? view.decision : undefined;
  const sort: ReportSort = view.sort === "oldest" ? "oldest" : "newest";
  const reports = useReports({ status, sort });
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <SelectFilter
          label="Decision"
          value={status ?? "all"}
          options={DECISIONS}
          onChange={(value) => setView({ decision: value })}
        />
        <SelectFilter label="Sort" value={sort} options={SORTS} onChange={(value) => setView({ sort: value })} />
      </div>
      <PagedListState
        list={reports}
        noun="reports"
        empty={status ? "No reports with this decision" : "No reports submitted yet"}
        emptyHint="Verifiers submit a report after each decision."
      >
        <ReportsTable reports={reports.items} sort={sort} onSortChange={(value) => setView({ sort: value })} />
      </PagedListState>
    </div>
  );
}
