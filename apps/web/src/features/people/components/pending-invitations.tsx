import { createColumnHelper } from "@tanstack/react-table";
import { formatDateTime, type InvitationDto, ROLE_LABELS } from "@tranche/domain";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useInvitations, useResendInvitation, useRevokeInvitation } from "../api/invitations";

const column = createColumnHelper<InvitationDto>();

function invitationColumns(onRevoke: (invite: InvitationDto) => void) {
  return [
    column.accessor("email", {
      header: "Person",
      meta: { className: "min-w-56" },
      cell: (info) => <Person invite={info.row.original} />,
    }),
    column.accessor((invite) => invite.projects.map((p) => p.name).join(", ") || "—", {
      id: "projects",
      header: "Projects",
    }),
    column.accessor("sentAt", {
      header: "Sent",
      meta: { className: "whitespace-nowrap text-slate-700" },
      cell: (info) => <Sent invite={info.row.original} />,
    }),
    // "Until" and the buttons give way before the projects do: the table fits a laptop's screen unscrolled.
    column.accessor("expiresAt", {
      header: "Link",
      cell: (info) => <LinkState invite={info.row.original} />,
    }),
    column.display({
      id: "actions",
      header: "Actions",
      cell: (info) => <InvitationActions invite={info.row.original} onRevoke={onRevoke} />,
    }),
  ];
}

/** Invitations sent and not yet accepted, newest first: each can be sent again (a new link) or revoked. */
export function PendingInvitations() {
  const { data, isPending, isError, error, refetch } = useInvitations();
  const revoke = useRevokeInvitation();
  const [revoking, setRevoking] = useState<InvitationDto | null>(null);
  const columns = useMemo(() => invitationColumns(setRevoking), []);

  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Pending invitations</h2>
        <CardDescription>
          Sent and not yet accepted. Resending makes a new link; the old one stops working.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Loading invitations</span>
            <Skeleton className="h-9" />
            <Skeleton className="h-9" />
          </div>
        ) : isError ? (
          <LoadError title="Could not load invitations" error={error} onRetry={refetch} />
        ) : data.length === 0 ? (
          <EmptyState title="No pending invitations">
            Invitations you send appear here until they are accepted.
          </EmptyState>
        ) : (
          <DataTable
            label="Pending invitations, newest first"
            columns={columns}
            rows={data}
            getRowId={(invite) => invite.id}
            minWidth="min-w-[40rem]"
            renderCard={(invite) => (
              <div className="grid gap-2">
                <Person invite={invite} />
                {invite.projects.length > 0 ? (
                  <p className="text-slate-700">{invite.projects.map((p) => p.name).join(", ")}</p>
                ) : null}
                <div className="grid gap-0.5 text-xs text-slate-700">
                  <Sent invite={invite} />
                  <LinkState invite={invite} />
                </div>
                <InvitationActions invite={invite} onRevoke={setRevoking} />
              </div>
            )}
          />
        )}
      </CardContent>
      {revoking ? (
        <ConfirmDialog
          title="Revoke this invitation?"
          description={`The link sent to ${revoking.email} stops working at once. You can invite them again later.`}
          confirmLabel="Revoke invitation"
          pendingLabel="Revoking..."
          onClose={() => setRevoking(null)}
          onConfirm={() =>
            revoke.mutateAsync(revoking.id).then(
              () => toast.success("Invitation revoked", `${revoking.email} can no longer use the link.`),
              (e) => toast.error("Could not revoke", errorMessage(e)),
            )
          }
        />
      ) : null}
    </Card>
  );
}

function Person({ invite }: { invite: InvitationDto }) {
  return (
    <div>
      <div className="break-all font-medium text-slate-900">{invite.email}</div>
      <div className="text-xs text-slate-700">
        {ROLE_LABELS[invite.role]}
        {invite.organization ? ` · ${invite.organization}` : ""}
      </div>
    </div>
  );
}

function Sent({ invite }: { invite: InvitationDto }) {
  return (
    <div>
      <time dateTime={invite.sentAt}>{formatDateTime(invite.sentAt)}</time>
      {invite.invitedBy ? <div className="text-xs">by {invite.invitedBy}</div> : null}
    </div>
  );
}

/** Until when the link works, or why it no longer does. */
function LinkState({ invite }: { invite: InvitationDto }) {
  if (invite.status === "inviter_inactive") {
    return <span className="font-medium text-amber-800">Stopped: its sender is no longer an admin</span>;
  }
  return invite.status === "expired" ? (
    <span className="font-medium text-amber-800">Expired</span>
  ) : (
    <span className="text-slate-700">
      Until{" "}
      <time dateTime={invite.expiresAt} className="whitespace-nowrap">
        {formatDateTime(invite.expiresAt)}
      </time>
    </span>
  );
}

function InvitationActions({ invite, onRevoke }: { invite: InvitationDto; onRevoke: (invite: InvitationDto) => void }) {
  const resend = useResendInvitation();
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        size="sm"
        variant="outline"
        disabled={resend.isPending}
        aria-label={`Resend invitation to ${invite.email}`}
        onClick={() =>
          resend.mutate(invite.id, {
            onSuccess: () => toast.success("Invitation sent again", `A new link went to ${invite.email}.`),
            onError: (e) => toast.error("Could not resend", errorMessage(e)),
          })
        }
      >
        Resend
      </Button>
      <Button
        size="sm"
        variant="outline"
        aria-label={`Revoke invitation to ${invite.email}`}
        onClick={() => onRevoke(invite)}
      >
        Revoke
      </Button>
    </div>
  );
}
