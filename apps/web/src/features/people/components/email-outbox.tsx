import { createColumnHelper } from "@tanstack/react-table";
import { formatDateTime, type OutboxEmailDto, type OutboxLinkWithheld } from "@tranche/domain";
import { useState } from "react";
import { PagingFooter } from "@/components/paging-footer";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { useOutboxEmails } from "../api/outbox";

const STATUS: Record<OutboxEmailDto["status"], { label: string; className: string }> = {
  pending: { label: "Waiting", className: "bg-slate-100 text-slate-800" },
  sent: { label: "Sent", className: "bg-emerald-100 text-emerald-900" },
  stored: { label: "Kept here (no mail server)", className: "bg-amber-100 text-amber-900" },
  failed: { label: "Failed", className: "bg-red-100 text-red-900" },
};

/** Why an invitation's or reset's text and link are not shown. */
const WITHHELD: Record<OutboxLinkWithheld, string> = {
  second_factor_required:
    "Its link opens an account: enter the code from your authenticator app (Account → Security) to see it here.",
  used: "Its link has been used or replaced and no longer works.",
  expired: "Its link has expired.",
};

const column = createColumnHelper<OutboxEmailDto>();
const OUTBOX_STEP = 10;

const columns = [
  column.accessor("subject", {
    header: "Subject",
    meta: { className: "wrap-anywhere" },
    cell: (info) => (
      <button
        type="button"
        className="cursor-pointer text-left font-medium text-blue-700 hover:underline"
        aria-expanded={info.row.getIsExpanded()}
        onClick={info.row.getToggleExpandedHandler()}
      >
        {info.getValue()}
      </button>
    ),
  }),
  column.accessor("to", { header: "To", meta: { className: "break-all text-slate-700" } }),
  column.accessor("status", { header: "Status", cell: (info) => <EmailStatus status={info.getValue()} /> }),
  column.accessor("createdAt", {
    header: "Written",
    meta: { className: "whitespace-nowrap text-slate-700" },
    cell: (info) => <time dateTime={info.getValue()}>{formatDateTime(info.getValue())}</time>,
  }),
];

/**
 * Emails Tranche sent, and without a mail server (SMTP_URL) the ones it kept instead, with their text and link,
 * so an admin can pass a link on by hand (admins only). A subject opens its email under it.
 */
export function EmailOutbox() {
  const { data, isPending, isError, error, refetch } = useOutboxEmails();
  // The latest 100 arrive at once; the list shows them a few at a time, as every list does.
  const [shown, setShown] = useState(OUTBOX_STEP);
  const rows = data?.slice(0, shown) ?? [];
  return (
    <Card className="min-w-0">
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Outbox</h2>
        <CardDescription>
          The latest 100 emails. Without a mail server configured, messages are kept here instead of sent: open one to
          read it and pass its link on.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Loading the outbox</span>
            <Skeleton className="h-9" />
            <Skeleton className="h-9" />
          </div>
        ) : isError ? (
          <LoadError title="Could not load the outbox" error={error} onRetry={refetch} />
        ) : data.length === 0 ? (
          <EmptyState title="No emails yet">Invitations, password resets and notifications appear here.</EmptyState>
        ) : (
          <div className="grid min-w-0 gap-3">
            <DataTable
              label="Emails, newest first"
              columns={columns}
              rows={rows}
              getRowId={(email) => email.id}
              renderExpanded={(email) => <EmailBody email={email} />}
              renderCard={(email, detail) => (
                <div className="grid gap-1.5">
                  <button
                    type="button"
                    className="cursor-pointer text-left font-medium text-blue-700 wrap-anywhere hover:underline"
                    aria-expanded={detail.expanded}
                    onClick={detail.toggle}
                  >
                    {email.subject}
                  </button>
                  <span className="break-all text-slate-700">to {email.to}</span>
                  <span className="flex flex-wrap items-center gap-2">
                    <EmailStatus status={email.status} />
                    <time className="text-xs text-slate-600" dateTime={email.createdAt}>
                      {formatDateTime(email.createdAt)}
                    </time>
                  </span>
                </div>
              )}
            />
            <PagingFooter
              list={{
                items: rows,
                hasNextPage: rows.length < data.length,
                isFetchingNextPage: false,
                fetchNextPage: () => setShown((n) => n + OUTBOX_STEP),
              }}
              noun="emails"
              total={data.length}
            />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function EmailStatus({ status }: { status: OutboxEmailDto["status"] }) {
  return (
    <span className={`whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ${STATUS[status].className}`}>
      {STATUS[status].label}
    </span>
  );
}

/** The email's link and text, or why they are not shown. */
function EmailBody({ email }: { email: OutboxEmailDto }) {
  return (
    <div className="grid gap-2 text-sm">
      {email.link ? (
        <p className="min-w-0 break-all">
          Link:{" "}
          <a className="text-blue-700 underline" href={email.link}>
            {email.link}
          </a>
        </p>
      ) : null}
      {email.text ? (
        <pre className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded bg-muted p-3 font-sans text-slate-800">
          {email.text}
        </pre>
      ) : (
        <p className="text-slate-700">
          {email.linkWithheld
            ? WITHHELD[email.linkWithheld]
            : email.status === "sent"
              ? "Sent to the recipient's mail server; its text and link are theirs alone."
              : email.lastError
                ? `Last attempt: ${email.lastError}`
                : "Not handled yet."}
        </p>
      )}
    </div>
  );
}
