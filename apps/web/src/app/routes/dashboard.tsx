import { welcomeName } from "@tranche/domain";
import { type ComponentProps, type ReactNode, Suspense, useEffect } from "react";
import { useSearchParams } from "react-router";
import { Skeleton } from "@/components/ui/feedback";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useSession } from "@/features/auth/api/session";
import { NoRoleWelcome, OverviewTab } from "@/features/dashboard/components/overview-tab";
import type { MilestoneList } from "@/features/milestones/components/milestone-list";
import type { ProjectManagement } from "@/features/projects/components/project-management";
import { VerifierDashboard } from "@/features/verification/components/verifier-dashboard";
import { rememberDashboard } from "@/lib/dashboard-return";
import { useDocumentTitle } from "@/lib/document-title";
import { whenIdle } from "@/lib/when-idle";
import { Preloaded, preloadable } from "../lazy-route";

// The Overview is what the page opens on; the other tabs' code loads when one is opened (or once the browser is
// idle after the Overview is drawn), so a first visit fetches only what it shows.
const projectsTab = preloadable<ComponentProps<typeof ProjectManagement>>(() =>
  import("@/features/projects/components/project-management").then((m) => ({ default: m.ProjectManagement })),
);
const milestonesTab = preloadable<NonNullable<ComponentProps<typeof MilestoneList>>>(() =>
  import("@/features/milestones/components/milestone-list").then((m) => ({ default: m.MilestoneList })),
);
const reportsTab = preloadable<Record<string, never>>(() =>
  import("@/features/verification/components/reports-list").then((m) => ({ default: m.ReportsList })),
);

function TabLoading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Skeleton className="h-64 w-full" />}>{children}</Suspense>;
}

const TABS = ["overview", "projects", "milestones", "reports"] as const;
type Tab = (typeof TABS)[number];

export default function DashboardPage() {
  const { data: user } = useSession();
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : "overview";
  useDocumentTitle("Dashboard");
  useEffect(() => rememberDashboard(tab === "overview" ? "/dashboard" : `/dashboard?tab=${tab}`), [tab]);
  useEffect(() => {
    const preload = () => {
      for (const lazyTab of [projectsTab, milestonesTab, reportsTab]) lazyTab.preload().catch(() => undefined);
    };
    return whenIdle(preload, { timeout: 3_000, otherwise: 1_000 });
  }, []);
  // Each tab keeps its own list view in the URL (?status=…&sort=…): a new tab starts from its defaults.
  const selectTab = (value: string) => setParams(value === "overview" ? {} : { tab: value }, { replace: true });
  return (
    <div className="grid gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">Dashboard</h1>
        <p className="mt-1 text-slate-700">Welcome back, {welcomeName(user)}</p>
        <p className="text-sm text-muted-foreground">Here's your capital verification overview.</p>
      </div>
      <Tabs value={tab} onValueChange={selectTab}>
        <TabsList>
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="projects">Projects</TabsTrigger>
          <TabsTrigger value="milestones">Milestones</TabsTrigger>
          <TabsTrigger value="reports">Reports</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          {user?.role ? <OverviewTab verifierDashboard={<VerifierDashboard />} /> : <NoRoleWelcome />}
        </TabsContent>
        <TabsContent value="projects">
          <TabLoading>
            <Preloaded entry={projectsTab.entry} props={{ role: user?.role }} />
          </TabLoading>
        </TabsContent>
        <TabsContent value="milestones" className="grid gap-4">
          <p className="text-muted-foreground">Please select a project to manage its milestones.</p>
          <TabLoading>
            <Preloaded entry={milestonesTab.entry} props={{ projectPicker: true }} />
          </TabLoading>
        </TabsContent>
        <TabsContent value="reports">
          <TabLoading>
            <Preloaded entry={reportsTab.entry} props={{}} />
          </TabLoading>
        </TabsContent>
      </Tabs>
    </div>
  );
}
