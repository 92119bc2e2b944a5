import { PagedListState } from "@/components/paged-list-state";
import { SelectFilter } from "@/components/select-filter";
import { useUrlState } from "@/lib/use-url-state";
import { useReports } from "../api/get-reports";
import { ReportsTable } from "./reports-table";

const DECISIONS = [
  { value: "all", label: "All decisions" },
  { value: "verified", label: "Verified" },
  { value: "rejected", label: "Rejected" },
];

/** Submitted verification reports the caller may see, newest first, a page at a time; the decision filter is in the URL. */
export function ReportsList() {
  const [view, setView] = useUrlState({ decision: "all" });
  const status = view.decision === "verified" || view.decision === "rejected" ? view.decision : undefined;
  const reports = useReports({ status });
  return (
    <div className="grid gap-4">
      <SelectFilter
        label="Decision"
        value={status ?? "all"}
        options={DECISIONS}
        onChange={(value) => setView({ decision: value })}
      />
      <PagedListState
        list={reports}
        noun="reports"
        empty={status ? "No reports with this decision" : "No reports submitted yet"}
        emptyHint="Verifiers submit a report after each decision."
      >
        <ReportsTable reports={reports.items} />
      </PagedListState>
    </div>
  );
}
