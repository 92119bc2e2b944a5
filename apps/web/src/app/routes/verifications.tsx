import { Navigate } from "react-router";
import { PageHeader } from "@/components/page-header";
import { useSession } from "@/features/auth/api/session";
import { VerifierDashboard } from "@/features/verification/components/verifier-dashboard";

/** The verifier's queue; anyone else who types the address is taken to their dashboard, as on /users. */
export default function VerificationsPage() {
  const { data: user } = useSession();
  if (!user) return null;
  if (user.role !== "verifier") return <Navigate to="/dashboard" replace />;
  return (
    <div>
      <PageHeader title="Verifications" description="Your verification queue across assigned projects." />
      <VerifierDashboard allCompleted />
    </div>
  );
}
