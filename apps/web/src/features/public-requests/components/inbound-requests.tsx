import { formatDateTime, type PublicRequestDto } from "@tranche/domain";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { usePublicRequests } from "../api/list-public-requests";

const KIND_LABELS: Record<PublicRequestDto["kind"], string> = {
  demo: "Demo",
  early_access: "Early access",
  verifier_partner: "Verifier partner",
};

/** Requests sent through the public forms, newest first (admins only). */
export function InboundRequests() {
  const { data, isPending, isError, error, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } =
    usePublicRequests();
  const items = data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Inbound requests</h2>
        <CardDescription>Demo, early-access and verifier-partner requests from the public site.</CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Loading inbound requests</span>
            <Skeleton className="h-9" />
            <Skeleton className="h-9" />
            <Skeleton className="h-9" />
          </div>
        ) : isError ? (
          <LoadError title="Could not load inbound requests" error={error} onRetry={refetch} />
        ) : items.length === 0 ? (
          <EmptyState title="No requests yet">Requests from the public forms appear here.</EmptyState>
        ) : (
          <>
            <ScrollRegion label="Inbound requests" className="rounded-md border">
              <table className="w-full min-w-[56rem] text-left text-sm">
                <caption className="sr-only">Inbound requests, newest first</caption>
                <thead className="bg-muted text-slate-700">
                  <tr>
                    {["Kind", "Email", "Name", "Organization", "Message", "Source", "Received"].map((h) => (
                      <th key={h} scope="col" className="px-3 py-2 font-medium">
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y">
                  {items.map((r) => (
                    <tr key={r.id} className="align-top">
                      <td className="whitespace-nowrap px-3 py-2 font-medium text-slate-900">{KIND_LABELS[r.kind]}</td>
                      <td className="px-3 py-2">
                        <a className="text-blue-700 underline" href={`mailto:${r.email}`}>
                          {r.email}
                        </a>
                      </td>
                      <td className="px-3 py-2">{r.name ?? "—"}</td>
                      <td className="px-3 py-2">{r.organization ?? "—"}</td>
                      <td className="max-w-xs whitespace-pre-line px-3 py-2 text-slate-700">{r.message ?? "—"}</td>
                      <td className="px-3 py-2 text-slate-700">{r.source ?? "—"}</td>
                      <td className="whitespace-nowrap px-3 py-2 text-slate-700">
                        <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
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
