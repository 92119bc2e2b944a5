import { formatStatus, MILESTONE_STATUSES, type MilestoneStatus } from "@tranche/domain";
import { useEffect, useState } from "react";
import { ExportCsvLink } from "@/components/export-csv-link";
import { PageHeader } from "@/components/page-header";
import { LoadError, Spinner } from "@/components/ui/feedback";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toaster";
import { useMilestones } from "@/features/milestones/api/get-milestones";
import { MilestoneTable } from "@/features/milestones/components/milestone-table";
import { errorMessage } from "@/lib/api-client";

/** The caller's milestones across every project they may see, filtered by status on the server. */
export default function MilestonesPage() {
  const [status, setStatus] = useState<"all" | MilestoneStatus>("all");
  const milestones = useMilestones(status === "all" ? {} : { status });

  useEffect(() => {
    if (milestones.error) toast.error("Error loading milestones", errorMessage(milestones.error));
  }, [milestones.error]);

  return (
    <div>
      <PageHeader
        title="Milestones"
        description="Milestones on your projects, earliest due first."
        actions={
          <ExportCsvLink
            path="/api/milestones/export.csv"
            filters={{ status: status === "all" ? undefined : status }}
          />
        }
      />
      <Tabs value={status} onValueChange={(value) => setStatus(value as typeof status)}>
        <TabsList aria-label="Filter milestones by status" className="h-auto flex-wrap">
          <TabsTrigger value="all">All</TabsTrigger>
          {MILESTONE_STATUSES.map((s) => (
            <TabsTrigger key={s} value={s}>
              {formatStatus(s)}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      <div className="mt-4">
        {milestones.isPending ? (
          <div className="flex justify-center py-12">
            <Spinner label="Loading milestones" />
          </div>
        ) : milestones.isError ? (
          <LoadError title="Could not load milestones" error={milestones.error} onRetry={milestones.refetch} />
        ) : (
          <MilestoneTable milestones={milestones.data ?? []} />
        )}
      </div>
    </div>
  );
}
