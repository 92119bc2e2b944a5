import { PageHeader } from "@/components/page-header";

export default function VerifiersPage() {
  return <PageHeader title="Verifiers" description="This screen is being built." />;
}
