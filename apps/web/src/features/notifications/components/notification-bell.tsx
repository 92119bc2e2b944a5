import { BellIcon } from "lucide-react";
import { Link } from "react-router";
import { useUnreadCount } from "../api/unread-count";

export function NotificationBell() {
  const { data: count = 0 } = useUnreadCount();
  const label = count === 1 ? "Notifications, 1 unread" : `Notifications, ${count} unread`;
  return (
    <Link
      to="/notifications"
      aria-label={label}
      className="relative inline-flex size-10 items-center justify-center rounded-md hover:bg-slate-100"
    >
      <BellIcon className="size-5 text-slate-700" aria-hidden />
      {count > 0 ? (
        <span
          data-testid="unread-badge"
          className="absolute -right-0.5 -top-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[11px] font-bold text-white"
        >
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </Link>
  );
}
