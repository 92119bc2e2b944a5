import type * as React from "react";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { useDashboard } from "../api/get-dashboard";
import { AdminDashboard } from "./admin-dashboard";
import { InvestorDashboard } from "./investor-dashboard";
import { OverviewCards } from "./overview-cards";
import { OwnerDashboard } from "./owner-dashboard";

/**
 * The Overview tab: the three cards and the caller's role dashboard from one request. The verifier's
 * dashboard belongs to the verification feature, so the page passes it in.
 */
export function OverviewTab({ verifierDashboard }: { verifierDashboard: React.ReactNode }) {
  const { data, isPending, error, refetch } = useDashboard();
  if (isPending) {
    return (
      <div className="grid gap-4 md:grid-cols-3" role="status" aria-busy="true" aria-label="Loading overview">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-32" />
        ))}
      </div>
    );
  }
  if (error) {
    return <LoadError title="Could not load the overview" error={error} onRetry={refetch} />;
  }
  const role = data.role;
  return (
    <div className="grid gap-8">
      <OverviewCards overview={data.overview} />
      {role.role === "investor" ? (
        <InvestorDashboard data={role} />
      ) : role.role === "project_owner" ? (
        <OwnerDashboard data={role} />
      ) : role.role === "admin" ? (
        <AdminDashboard data={role} />
      ) : (
        verifierDashboard
      )}
    </div>
  );
}

/** With no role, a welcome text asking the user to log in. */
export function NoRoleWelcome() {
  return (
    <div className="rounded-lg border bg-white p-6 text-center">
      <h2 className="text-lg font-semibold text-slate-900">Welcome to Tranche</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Please log in with an account that has a role to see your dashboard.
      </p>
    </div>
  );
}
