import { PageHeader } from "@/components/page-header";
import { MilestoneList } from "@/features/milestones/components/milestone-list";

/** The caller's milestones across every project they may see: filtered, searched and sorted on the server. */
export default function MilestonesPage() {
  return (
    <div>
      <PageHeader title="Milestones" description="Milestones on your projects." />
      <MilestoneList />
    </div>
  );
}
