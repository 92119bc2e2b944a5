import { useEffect } from "react";
import { PageHeader } from "@/components/page-header";
import { LoadError, Spinner } from "@/components/ui/feedback";
import { toast } from "@/components/ui/toaster";
import { useVerifiers } from "@/features/projects/api/get-verifiers";
import { VerifierDirectory } from "@/features/projects/components/verifier-directory";
import { errorMessage } from "@/lib/api-client";

export default function VerifiersPage() {
  const verifiers = useVerifiers();
  useEffect(() => {
    if (verifiers.error) toast.error("Error loading verifiers", errorMessage(verifiers.error));
  }, [verifiers.error]);
  return (
    <div>
      <PageHeader
        title="Verifiers"
        description="Independent verifiers who check milestones before capital is released."
      />
      {verifiers.isPending ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading verifiers" />
        </div>
      ) : verifiers.isError ? (
        <LoadError title="Could not load verifiers" error={verifiers.error} onRetry={verifiers.refetch} />
      ) : (
        <VerifierDirectory verifiers={verifiers.data ?? []} />
      )}
    </div>
  );
}
