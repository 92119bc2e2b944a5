import { PageHeader } from "@/components/page-header";
import { ReportsList } from "@/features/verification/components/reports-list";

export default function ReportsPage() {
  return (
    <div>
      <PageHeader title="Reports" description="Submitted verification reports for your projects." />
      <ReportsList />
    </div>
  );
}
