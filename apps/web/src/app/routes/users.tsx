import { PageHeader } from "@/components/page-header";

export default function UsersPage() {
  return <PageHeader title="Users" description="This screen is being built." />;
}
