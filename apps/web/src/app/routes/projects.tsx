import { PageHeader } from "@/components/page-header";

export default function ProjectsPage() {
  return <PageHeader title="Projects" description="This screen is being built." />;
}
