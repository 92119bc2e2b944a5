import { NotificationsList } from "@/features/notifications/components/notifications-list";

export default function NotificationsPage() {
  return <NotificationsList />;
}
