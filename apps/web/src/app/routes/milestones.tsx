import { PageHeader } from "@/components/page-header";

export default function MilestonesPage() {
  return <PageHeader title="Milestones" description="This screen is being built." />;
}
