import { createColumnHelper } from "@tanstack/react-table";
import { formatDateTime, type PublicRequestDto } from "@tranche/domain";
import { PagedListState } from "@/components/paged-list-state";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { usePublicRequests } from "../api/list-public-requests";

const KIND_LABELS: Record<PublicRequestDto["kind"], string> = {
  demo: "Demo",
  early_access: "Early access",
  verifier_partner: "Verifier partner",
};

const column = createColumnHelper<PublicRequestDto>();
const orDash = (value: string | null) => value ?? "—";

const columns = [
  column.accessor((r) => KIND_LABELS[r.kind], {
    id: "kind",
    header: "Kind",
    meta: { className: "whitespace-nowrap font-medium text-slate-900" },
  }),
  column.accessor("email", {
    header: "Email",
    meta: { className: "wrap-anywhere" },
    cell: (info) => <Email email={info.getValue()} />,
  }),
  column.accessor("name", { header: "Name", cell: (info) => orDash(info.getValue()) }),
  column.accessor("organization", { header: "Organization", cell: (info) => orDash(info.getValue()) }),
  column.accessor("message", {
    header: "Message",
    meta: { className: "max-w-xs whitespace-pre-line text-slate-700" },
    cell: (info) => orDash(info.getValue()),
  }),
  column.accessor("source", {
    header: "Source",
    meta: { className: "text-slate-700" },
    cell: (info) => orDash(info.getValue()),
  }),
  column.accessor("createdAt", {
    header: "Received",
    meta: { className: "whitespace-nowrap text-slate-700" },
    cell: (info) => <time dateTime={info.getValue()}>{formatDateTime(info.getValue())}</time>,
  }),
];

/** Requests sent through the public forms, newest first (admins only). */
export function InboundRequests() {
  const requests = usePublicRequests();
  return (
    <Card className="min-w-0">
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Inbound requests</h2>
        <CardDescription>Demo, early-access and verifier-partner requests from the public site.</CardDescription>
      </CardHeader>
      <CardContent>
        <PagedListState
          list={requests}
          noun="requests"
          empty="No requests yet"
          emptyHint="Requests from the public forms appear here."
        >
          <DataTable
            label="Inbound requests, newest first"
            columns={columns}
            rows={requests.items}
            getRowId={(r) => r.id}
            minWidth="min-w-[56rem]"
            renderCard={(r) => <RequestCard request={r} />}
          />
        </PagedListState>
      </CardContent>
    </Card>
  );
}

function Email({ email }: { email: string }) {
  return (
    <a className="text-blue-700 underline" href={`mailto:${email}`}>
      {email}
    </a>
  );
}

/** A phone's card: who asked for what, when, and their message. */
function RequestCard({ request: r }: { request: PublicRequestDto }) {
  const who = [r.name, r.organization].filter(Boolean).join(", ");
  return (
    <div className="grid gap-1.5">
      <div className="flex items-start justify-between gap-2">
        <span className="font-medium text-slate-900">{KIND_LABELS[r.kind]}</span>
        <time className="whitespace-nowrap text-xs text-slate-700" dateTime={r.createdAt}>
          {formatDateTime(r.createdAt)}
        </time>
      </div>
      <span className="wrap-anywhere">
        <Email email={r.email} />
      </span>
      {who ? <span className="wrap-anywhere text-slate-700">{who}</span> : null}
      {r.message ? <p className="whitespace-pre-line wrap-anywhere text-slate-700">{r.message}</p> : null}
      {r.source ? <span className="text-xs text-muted-foreground">Source: {r.source}</span> : null}
    </div>
  );
}
