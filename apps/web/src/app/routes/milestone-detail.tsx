import { PageHeader } from "@/components/page-header";

export default function MilestonePage() {
  return <PageHeader title="Milestone" description="This screen is being built." />;
}
