import { PageHeader } from "@/components/page-header";
import { VerifierDashboard } from "@/features/verification/components/verifier-dashboard";

export default function VerificationsPage() {
  return (
    <div>
      <PageHeader title="Verifications" description="Your verification queue across assigned projects." />
      <VerifierDashboard allCompleted />
    </div>
  );
}
