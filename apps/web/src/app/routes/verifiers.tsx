import { seesVerifierDirectory, type VerifierSort } from "@tranche/domain";
import { useEffect } from "react";
import { Navigate } from "react-router";
import { ListSearch } from "@/components/list-search";
import { PageHeader } from "@/components/page-header";
import { PagedListState } from "@/components/paged-list-state";
import { SelectFilter } from "@/components/select-filter";
import { toast } from "@/components/ui/toaster";
import { VerifierTurnaround } from "@/features/analytics/components/lazy-charts";
import { useSession } from "@/features/auth/api/session";
import { useVerifierDirectory } from "@/features/projects/api/get-verifiers";
import { VerifierDirectory } from "@/features/projects/components/verifier-directory";
import { errorMessage } from "@/lib/api-client";
import { useUrlState } from "@/lib/use-url-state";

const SORTS: { value: VerifierSort; label: string }[] = [
  { value: "name", label: "Name (A–Z)" },
  { value: "completed", label: "Most verifications" },
  { value: "rating", label: "Highest rating" },
];

export default function VerifiersPage() {
  const { data: user } = useSession();
  if (!user) return null;
  // The server refuses the directory to other roles; their navigation does not link to it.
  if (!seesVerifierDirectory(user.role)) return <Navigate to="/dashboard" replace />;
  return <VerifierDirectoryPage />;
}

function VerifierDirectoryPage() {
  const [view, setView] = useUrlState({ q: "", sort: "name" });
  const sort = view.sort as VerifierSort;
  const verifiers = useVerifierDirectory({ q: view.q || undefined, sort });
  useEffect(() => {
    if (verifiers.error) toast.error("Error loading verifiers", errorMessage(verifiers.error));
  }, [verifiers.error]);
  return (
    <div>
      <PageHeader
        title="Verifiers"
        description="Independent verifiers who check milestones before capital is released."
      />
      <VerifierTurnaround />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <ListSearch label="Search verifiers" value={view.q} onSearch={(q) => setView({ q })} />
        <SelectFilter label="Sort" value={sort} options={SORTS} onChange={(value) => setView({ sort: value })} />
      </div>
      <PagedListState list={verifiers} noun="verifiers" empty={view.q ? "No verifiers found" : "No verifiers yet"}>
        <VerifierDirectory verifiers={verifiers.items} sort={sort} onSortChange={(value) => setView({ sort: value })} />
      </PagedListState>
    </div>
  );
}
