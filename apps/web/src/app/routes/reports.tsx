import { PageHeader } from "@/components/page-header";
import { ReportCharts } from "@/features/analytics/components/lazy-charts";
import { ReportsList } from "@/features/verification/components/reports-list";

export default function ReportsPage() {
  return (
    <div>
      <PageHeader title="Reports" description="Submitted verification reports for your projects." />
      <ReportCharts />
      <ReportsList />
    </div>
  );
}
