import type { MilestoneDetailDto } from "@tranche/domain";
import { ArrowLeftIcon, PencilIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { BlockedAction } from "@/components/ui/blocked-action";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useMilestone } from "@/features/milestones/api/get-milestone";
import { DeleteMilestoneDialog } from "@/features/milestones/components/delete-milestone-dialog";
import { MilestoneFormDialog } from "@/features/milestones/components/milestone-form-dialog";
import { MilestoneProgress } from "@/features/milestones/components/milestone-progress";
import { MilestoneSummary } from "@/features/milestones/components/milestone-summary";
import { useProject } from "@/features/projects/api/get-project";
import { MilestoneReleases } from "@/features/releases/components/release-details";
import { EvidenceTab, VerificationTab, VerifyButton } from "@/features/verification/components/verification-panel";
import { useDocumentTitle } from "@/lib/document-title";
import { useLoadFailure } from "@/lib/use-load-failure";
import { useUrlState } from "@/lib/use-url-state";

const FAILURE_TEXTS = {
  notFound: ["Milestone not found", "The requested milestone could not be found."],
  failed: ["Error loading milestone", "Could not load milestone details"],
} as const satisfies Parameters<typeof useLoadFailure>[1];

const TABS = ["overview", "verification", "evidence"] as const;

/** A milestone's page: its figures, progress, verification, evidence and history. */
export default function MilestonePage() {
  const { milestoneId = "" } = useParams();
  const milestone = useMilestone(milestoneId);
  useLoadFailure(milestone.error, FAILURE_TEXTS);
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<"edit" | "delete" | null>(null);
  // The open tab is in the URL (?tab=verification), so a notification or a shared link opens the right one.
  const [view, setView] = useUrlState({ tab: "overview" });
  const tab = TABS.includes(view.tab as (typeof TABS)[number]) ? view.tab : "overview";
  const m = milestone.data;
  useDocumentTitle(m ? `${m.title} · ${m.projectName}` : "Milestone");

  // Not found goes back to the dashboard; any other failure offers another try instead of a lasting skeleton.
  if (!m && milestone.isError) {
    return <LoadError title={FAILURE_TEXTS.failed[0]} error={milestone.error} onRetry={milestone.refetch} />;
  }
  if (!m) {
    return (
      <div className="grid gap-4" aria-busy="true">
        <Skeleton className="h-8 w-40" />
        <Skeleton className="h-9 w-2/3" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  }

  return (
    <div className="grid gap-6">
      <div>
        <Button asChild variant="ghost" size="sm" className="-ml-3">
          <Link to={`/projects/${m.projectId}?tab=milestones`}>
            <ArrowLeftIcon aria-hidden /> Back to Project
          </Link>
        </Button>
      </div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{m.title}</h1>
            <MilestoneStatusBadge status={m.status} className="text-sm" />
          </div>
          <p className="text-sm text-muted-foreground">
            Project:{" "}
            <Link to={`/projects/${m.projectId}`} className="font-medium text-blue-700 hover:underline">
              {m.projectName}
            </Link>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <VerifyButton milestoneId={m.id} />
          {m.permissions.canEdit ? (
            <Button variant="outline" size="sm" onClick={() => setDialog("edit")}>
              <PencilIcon aria-hidden /> Edit
            </Button>
          ) : m.permissions.reasons.edit ? (
            <BlockedAction reason={m.permissions.reasons.edit}>
              <PencilIcon aria-hidden /> Edit
            </BlockedAction>
          ) : null}
          {m.permissions.canDelete ? (
            <Button variant="outline" size="sm" className="text-destructive" onClick={() => setDialog("delete")}>
              <Trash2Icon aria-hidden /> Delete
            </Button>
          ) : m.permissions.reasons.delete && !m.permissions.reasons.edit ? (
            <BlockedAction reason={m.permissions.reasons.delete} className="text-destructive">
              <Trash2Icon aria-hidden /> Delete
            </BlockedAction>
          ) : m.permissions.reasons.delete ? (
            <Button variant="outline" size="sm" className="text-destructive" disabled>
              <Trash2Icon aria-hidden /> Delete
            </Button>
          ) : null}
        </div>
      </div>

      <MilestoneSummary milestone={m} />

      <Tabs value={tab} onValueChange={(value) => setView({ tab: value })}>
        <TabsList>
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="verification">Verification</TabsTrigger>
          <TabsTrigger value="evidence">Evidence</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
            <Card>
              <CardHeader>
                <CardTitle>Description</CardTitle>
              </CardHeader>
              <CardContent>
                <p className="whitespace-pre-line text-sm text-slate-700">{m.description}</p>
              </CardContent>
            </Card>
            <Card>
              <CardHeader>
                <CardTitle>Progress</CardTitle>
              </CardHeader>
              <CardContent>
                <MilestoneProgress milestone={m} />
              </CardContent>
            </Card>
            {m.releases.length ? (
              <div className="lg:col-span-2">
                <MilestoneReleases releases={m.releases} />
              </div>
            ) : null}
          </div>
        </TabsContent>
        <TabsContent value="verification">
          <VerificationSlot milestone={m} />
        </TabsContent>
        <TabsContent value="evidence">
          <EvidenceSlot milestone={m} />
        </TabsContent>
      </Tabs>

      {dialog === "edit" ? (
        <MilestoneFormDialog
          projectId={m.projectId}
          milestone={m}
          canSetStatus={m.permissions.canSetStatus}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog === "delete" ? (
        <DeleteMilestoneDialog
          milestone={m}
          onClose={() => setDialog(null)}
          onDeleted={() => navigate(`/projects/${m.projectId}?tab=milestones`)}
        />
      ) : null}
    </div>
  );
}

/** The Verification tab: state, progress, comments, the owner's actions and the milestone's history. */
function VerificationSlot({ milestone }: { milestone: MilestoneDetailDto }) {
  const project = useProject(milestone.projectId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Verification</CardTitle>
      </CardHeader>
      <CardContent>
        <VerificationTab milestoneId={milestone.id} disputeCandidates={project.data?.verifiers} />
      </CardContent>
    </Card>
  );
}

/** The Evidence tab: each file with size, uploader, time and SHA-256; upload for owner and verifier. */
function EvidenceSlot({ milestone }: { milestone: MilestoneDetailDto }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Evidence</CardTitle>
      </CardHeader>
      <CardContent>
        <EvidenceTab milestoneId={milestone.id} />
      </CardContent>
    </Card>
  );
}
