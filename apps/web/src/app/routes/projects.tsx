import { useSearchParams } from "react-router";
import { PageHeader } from "@/components/page-header";
import { useSession } from "@/features/auth/api/session";
import { ProjectManagement } from "@/features/projects/components/project-management";

export default function ProjectsPage() {
  const { data: user } = useSession();
  // ?q= comes from the header search box.
  const [params, setParams] = useSearchParams();
  const search = params.get("q")?.trim() ?? "";
  return (
    <div>
      <PageHeader title="Projects" description="Every project you take part in, with its capital and progress." />
      <ProjectManagement role={user?.role} search={search} onClearSearch={() => setParams({})} />
    </div>
  );
}
