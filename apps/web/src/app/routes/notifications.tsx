import { PageHeader } from "@/components/page-header";

export default function NotificationsPage() {
  return <PageHeader title="Notifications" description="This screen is being built." />;
}
