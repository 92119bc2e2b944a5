import { welcomeName } from "@tranche/domain";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useSession } from "@/features/auth/api/session";
import { NoRoleWelcome, OverviewTab } from "@/features/dashboard/components/overview-tab";
import { MilestoneList } from "@/features/milestones/components/milestone-list";
import { ProjectManagement } from "@/features/projects/components/project-management";
import { ReportsList } from "@/features/verification/components/reports-list";
import { VerifierDashboard } from "@/features/verification/components/verifier-dashboard";
import { rememberDashboard } from "@/lib/dashboard-return";
import { useDocumentTitle } from "@/lib/document-title";

const TABS = ["overview", "projects", "milestones", "reports"] as const;
type Tab = (typeof TABS)[number];

export default function DashboardPage() {
  const { data: user } = useSession();
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : "overview";
  useDocumentTitle("Dashboard");
  useEffect(() => rememberDashboard(tab === "overview" ? "/dashboard" : `/dashboard?tab=${tab}`), [tab]);
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
          <ProjectManagement role={user?.role} />
        </TabsContent>
        <TabsContent value="milestones" className="grid gap-4">
          <p className="text-muted-foreground">Please select a project to manage its milestones.</p>
          <MilestoneList projectPicker />
        </TabsContent>
        <TabsContent value="reports">
          <ReportsList />
        </TabsContent>
      </Tabs>
    </div>
  );
}
