import { formatDateTime, type OutboxEmailDto, type OutboxLinkWithheld } from "@tranche/domain";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
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

/**
 * Emails Tranche sent, and without a mail server (SMTP_URL) the ones it kept instead, with their text and link,
 * so an admin can pass a link on by hand (admins only).
 */
export function EmailOutbox() {
  const { data, isPending, isError, error, refetch } = useOutboxEmails();
  return (
    <Card>
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
          <ul className="grid gap-2" aria-label="Emails, newest first">
            {data.map((email) => (
              <li key={email.id} className="rounded-md border">
                <details>
                  <summary className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
                    <span className="min-w-0 font-medium break-words text-slate-900">{email.subject}</span>
                    <span className="min-w-0 break-all text-slate-700">to {email.to}</span>
                    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATUS[email.status].className}`}>
                      {STATUS[email.status].label}
                    </span>
                    <time className="text-xs text-slate-600" dateTime={email.createdAt}>
                      {formatDateTime(email.createdAt)}
                    </time>
                  </summary>
                  <div className="grid gap-2 border-t px-3 py-3 text-sm">
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
                </details>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
