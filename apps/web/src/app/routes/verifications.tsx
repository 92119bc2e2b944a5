import { PageHeader } from "@/components/page-header";

export default function VerificationsPage() {
  return <PageHeader title="Verifications" description="This screen is being built." />;
}
