import { formatDateTime, formatMoney, type ReleaseDto } from "@tranche/domain";
import { Link } from "react-router";
import { ExportCsvLink } from "@/components/export-csv-link";
import { ReleaseStatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState, Skeleton } from "@/components/ui/feedback";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { errorMessage } from "@/lib/api-client";
import { useProjectReleases } from "../api/get-releases";
import { ReleaseActions } from "./release-actions";

/** What came back from the custodian, in a few words. */
function custodianAnswer(r: ReleaseDto): string {
  if (r.settlement) return `Reference ${r.settlement.reference}`;
  return r.failure?.reason ?? r.cancellation?.reason ?? "Awaiting settlement";
}

/** A project's releases with their status, what the custodian reported, and an admin's actions. */
export function ProjectReleases({ projectId }: { projectId: string }) {
  const { data, isPending, isError, error, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useProjectReleases(projectId);
  const items = data?.pages.flatMap((page) => page.items) ?? [];
  return (
    // min-w-0 and a relative scroll box: the wide table (and its visually hidden header) scroll inside the
    // card instead of widening the whole page on a phone.
    <Card className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <CardTitle>Releases</CardTitle>
          <CardDescription>What the custodian was instructed to pay, and what it reported back.</CardDescription>
        </div>
        {items.length > 0 ? <ExportCsvLink path="/api/releases/export.csv" filters={{ projectId }} /> : null}
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Loading releases</span>
            <Skeleton className="h-9" />
            <Skeleton className="h-9" />
          </div>
        ) : isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(error, "Could not load releases.")}
          </p>
        ) : items.length === 0 ? (
          <EmptyState title="No releases yet">A release is instructed when a verifier approves a milestone.</EmptyState>
        ) : (
          <>
            <ScrollRegion label="Releases" className="relative rounded-md border">
              <table className="w-full text-left text-sm sm:min-w-[44rem]">
                <caption className="sr-only">Releases, newest first</caption>
                <thead className="bg-muted text-slate-700">
                  <tr>
                    {["Milestone", "Amount", "Status", "Custodian", "Updated", ""].map((h, i) => (
                      // Below sm, the status, the custodian's answer and the time stack under the milestone instead.
                      <th
                        key={h || i}
                        scope="col"
                        className={`px-3 py-2 font-medium ${i >= 2 && i <= 4 ? "hidden sm:table-cell" : ""}`}
                      >
                        {h || <span className="sr-only">Actions</span>}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y">
                  {items.map((r) => (
                    <tr key={r.id} className="align-top" data-testid="release-row">
                      <td className="px-3 py-2">
                        <Link
                          to={`/milestones/${r.milestone.id}`}
                          className="font-medium text-blue-700 hover:underline"
                        >
                          {r.milestone.name}
                        </Link>
                        <span className="mt-1 grid justify-items-start gap-1 text-xs text-slate-700 sm:hidden">
                          <ReleaseStatusBadge status={r.status} />
                          {custodianAnswer(r)}
                          <span data-testid="release-updated-phone">
                            Updated <time dateTime={r.updatedAt}>{formatDateTime(r.updatedAt)}</time>
                          </span>
                        </span>
                      </td>
                      <td className="whitespace-nowrap px-3 py-2 font-medium text-slate-900">
                        {formatMoney(r.amount, r.currency)}
                      </td>
                      <td className="hidden px-3 py-2 sm:table-cell">
                        <ReleaseStatusBadge status={r.status} />
                      </td>
                      <td className="hidden max-w-xs px-3 py-2 text-slate-700 sm:table-cell">{custodianAnswer(r)}</td>
                      <td className="hidden whitespace-nowrap px-3 py-2 text-slate-700 sm:table-cell">
                        <time dateTime={r.updatedAt}>{formatDateTime(r.updatedAt)}</time>
                      </td>
                      <td className="px-3 py-2 sm:whitespace-nowrap">
                        <ReleaseActions release={r} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
            {hasNextPage ? (
              <Button variant="outline" className="mt-4" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
                {isFetchingNextPage ? "Loading..." : "Load more"}
              </Button>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
