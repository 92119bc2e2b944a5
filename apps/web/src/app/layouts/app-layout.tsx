import { displayLabel, NAV_LINKS, ROLE_LABELS, type UserDto } from "@tranche/domain";
import {
  BellIcon,
  ClipboardCheckIcon,
  FileTextIcon,
  FlagIcon,
  FolderKanbanIcon,
  HomeIcon,
  LayoutDashboardIcon,
  LogOutIcon,
  type LucideIcon,
  MapPinnedIcon,
  SettingsIcon,
  ShieldCheckIcon,
  UserCogIcon,
  UsersIcon,
} from "lucide-react";
import { Link, NavLink, Outlet, useNavigate } from "react-router";
import { SecondFactorPrompt } from "@/features/account/components/second-factor-prompt";
import { useSignOut } from "@/features/auth/api/session";
import { NotificationBell } from "@/features/notifications/components/notification-bell";
import { EventStream } from "@/features/realtime/event-stream";
import { HeaderSearch } from "@/features/search/header-search";
import { cn } from "@/lib/utils";
import { BottomDrawer } from "./bottom-drawer";
import { Logo } from "./brand";

export function AppLayout({ user }: { user: UserDto }) {
  return (
    <div className="min-h-screen bg-background lg:grid lg:grid-cols-[16rem_1fr] lg:bg-[linear-gradient(to_right,var(--color-navy-950)_16rem,var(--color-background)_16rem)]">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <EventStream />
      <SecondFactorPrompt />
      <Sidebar user={user} />
      <div className="flex min-w-0 flex-col">
        <AppHeader user={user} />
        <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 pb-24 sm:px-6 lg:pb-10">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

function useSignOutAndLeave() {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return () => signOut.mutate(undefined, { onSettled: () => navigate("/login", { replace: true }) });
}

const NAV_ICONS: Record<string, LucideIcon> = {
  "/projects": FolderKanbanIcon,
  "/milestones": FlagIcon,
  "/verifiers": ShieldCheckIcon,
  "/reports": FileTextIcon,
  "/verifications": ClipboardCheckIcon,
  "/field": MapPinnedIcon,
  "/users": UsersIcon,
  "/settings": SettingsIcon,
};

function NavIcon({ to, className = "size-4" }: { to: string; className?: string }) {
  const Icon = NAV_ICONS[to] ?? HomeIcon;
  return <Icon className={className} aria-hidden />;
}

const sideLink = ({ isActive }: { isActive: boolean }) =>
  cn(
    "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium",
    isActive ? "bg-white/10 text-white" : "text-slate-300 hover:bg-white/5 hover:text-white",
  );

/** SPEC.md §2.1: links by role; an unknown role sees only Home. */
function Sidebar({ user }: { user: UserDto }) {
  const links = user.role ? NAV_LINKS[user.role] : [];
  const signOut = useSignOutAndLeave();
  return (
    <aside className="sticky top-0 hidden h-screen flex-col bg-navy-950 p-4 lg:flex" aria-label="Sidebar">
      <Logo inverted className="px-2 py-1" />
      <nav aria-label="Side navigation" className="mt-8 flex-1">
        <ul className="grid gap-1">
          <li>
            <NavLink to="/" end className={sideLink}>
              <HomeIcon className="size-4" aria-hidden /> Home
            </NavLink>
          </li>
          {links.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} className={sideLink}>
                <NavIcon to={link.to} /> {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="border-t border-white/10 pt-4">
        <p className="truncate px-2 text-sm font-medium text-white" data-testid="user-label" title={user.email}>
          {displayLabel(user.email)}
        </p>
        <p className="px-2 text-xs text-slate-400" data-testid="role-label">
          {user.role ? ROLE_LABELS[user.role] : "No role"}
        </p>
        <NavLink to="/account" className={(state) => cn(sideLink(state), "mt-3 px-2")}>
          <UserCogIcon className="size-4" aria-hidden /> Account
        </NavLink>
        <button
          type="button"
          onClick={signOut}
          className="mt-3 flex w-full items-center gap-2 rounded-md px-2 py-2 text-sm text-slate-300 hover:bg-white/5 hover:text-white"
        >
          <LogOutIcon className="size-4" aria-hidden /> Sign out
        </button>
      </div>
    </aside>
  );
}

function AppHeader({ user }: { user: UserDto }) {
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b bg-white/95 px-4 backdrop-blur sm:px-6">
      <div className="lg:hidden">
        <Logo />
      </div>
      <Link
        to="/dashboard"
        className="hidden rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100 sm:inline-flex"
      >
        Dashboard
      </Link>
      <search className="ml-auto hidden w-full max-w-xs md:block">
        <HeaderSearch />
      </search>
      <div className="ml-auto flex items-center gap-1 md:ml-0">
        <NotificationBell />
        <MobileAppDrawer user={user} />
      </div>
    </header>
  );
}

/**
 * SPEC.md §2.2 signed-in drawer: user label, Home, Dashboard, Notifications, Log out — plus the role's own
 * links, since the sidebar that carries them is hidden on small screens.
 */
function MobileAppDrawer({ user }: { user: UserDto }) {
  const signOut = useSignOutAndLeave();
  const item = "flex items-center gap-3 rounded-md px-3 py-3 text-base font-medium text-slate-800 hover:bg-slate-100";
  return (
    <BottomDrawer
      title={
        <span>
          <span className="block text-sm font-semibold text-slate-900">{displayLabel(user.email)}</span>
          <span className="block text-xs text-slate-500">{user.role ? ROLE_LABELS[user.role] : "No role"}</span>
        </span>
      }
    >
      {() => (
        <>
          {/* The header's search box is hidden on a phone: it is here instead. */}
          <search className="mb-3 px-3 md:hidden">
            <HeaderSearch inline />
          </search>
          <nav aria-label="Mobile">
            <Link to="/" className={item}>
              <HomeIcon className="size-5" aria-hidden /> Home
            </Link>
            <Link to="/dashboard" className={item}>
              <LayoutDashboardIcon className="size-5" aria-hidden /> Dashboard
            </Link>
            <Link to="/notifications" className={item}>
              <BellIcon className="size-5" aria-hidden /> Notifications
            </Link>
            {(user.role ? NAV_LINKS[user.role] : []).map((link) => (
              <Link key={link.to} to={link.to} className={item}>
                <NavIcon to={link.to} className="size-5" /> {link.label}
              </Link>
            ))}
            <Link to="/account" className={item}>
              <UserCogIcon className="size-5" aria-hidden /> Account
            </Link>
            <button type="button" onClick={signOut} className={cn(item, "w-full")}>
              <LogOutIcon className="size-5" aria-hidden /> Log out
            </button>
          </nav>
        </>
      )}
    </BottomDrawer>
  );
}
