import { PageHeader } from "@/components/page-header";

export default function ProjectPage() {
  return <PageHeader title="Project" description="This screen is being built." />;
}
