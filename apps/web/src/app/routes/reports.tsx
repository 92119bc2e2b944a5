import { PageHeader } from "@/components/page-header";

export default function ReportsPage() {
  return <PageHeader title="Reports" description="This screen is being built." />;
}
