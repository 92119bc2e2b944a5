import { createColumnHelper } from "@tanstack/react-table";
import { type ApiTokenDto, formatDateTime } from "@tranche/domain";
import { PlusIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState, LoadError, Skeleton } from "@/components/ui/feedback";
import { useApiTokens } from "../api/api-tokens";
import { CreateTokenDialog } from "./create-token-dialog";
import { RevokeTokenDialog } from "./revoke-token-dialog";

const column = createColumnHelper<ApiTokenDto>();

function tokenColumns(onRevoke: (token: ApiTokenDto) => void) {
  return [
    column.accessor("name", {
      header: "Name",
      // Wide enough for whole words: only a name longer than the column breaks inside a word.
      meta: { className: "min-w-32 wrap-anywhere" },
      cell: (info) => (
        <>
          <span className="block font-medium text-slate-900">{info.getValue()}</span>
          <code className="text-xs text-muted-foreground">{info.row.original.prefix}…</code>
        </>
      ),
    }),
    column.accessor("scopes", { header: "Scopes", cell: (info) => <Scopes scopes={info.getValue()} /> }),
    column.accessor("createdAt", {
      header: "Created",
      meta: { className: "whitespace-nowrap text-slate-700" },
      cell: (info) => formatDateTime(info.getValue()),
    }),
    column.accessor("createdByName", {
      header: "Created by",
      meta: { className: "text-slate-700" },
      cell: (info) => <CreatedBy token={info.row.original} />,
    }),
    column.accessor("lastUsedAt", {
      header: "Last used",
      meta: { className: "whitespace-nowrap text-slate-700" },
      cell: (info) => lastUsed(info.row.original),
    }),
    column.display({
      id: "actions",
      header: () => <span className="sr-only">Actions</span>,
      meta: { className: "text-right" },
      cell: (info) => <Revoke token={info.row.original} onRevoke={onRevoke} />,
    }),
  ];
}

/** Settings → Integrations: scoped tokens for custodians and other machine clients (admins). */
export function ApiTokens() {
  const tokens = useApiTokens();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenDto | null>(null);
  const columns = useMemo(() => tokenColumns(setRevoking), []);
  const items = tokens.data?.items ?? [];
  return (
    <Card className="min-w-0">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <h3 className="text-base font-semibold leading-tight tracking-tight">API tokens</h3>
          <CardDescription>
            Custodians settle and fail releases with a token; integrations read releases and projects. Send it as{" "}
            <code className="text-xs">Authorization: Bearer …</code>
          </CardDescription>
        </div>
        <Button size="sm" onClick={() => setCreating(true)}>
          <PlusIcon aria-hidden /> Create token
        </Button>
      </CardHeader>
      <CardContent>
        {tokens.isPending ? (
          <div className="grid gap-2" aria-busy="true">
            <span className="sr-only">Loading API tokens</span>
            <Skeleton className="h-9" />
            <Skeleton className="h-9" />
          </div>
        ) : tokens.isError ? (
          <LoadError title="Could not load API tokens" error={tokens.error} onRetry={tokens.refetch} />
        ) : items.length === 0 ? (
          <EmptyState title="No API tokens yet">Create one for each custodian or integration.</EmptyState>
        ) : (
          <DataTable
            label="API tokens, newest first"
            columns={columns}
            rows={items}
            getRowId={(token) => token.id}
            minWidth="min-w-[52rem]"
            rowProps={() => ({ "data-testid": "api-token-row" })}
            renderCard={(token) => (
              <div className="grid gap-2">
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0 wrap-anywhere">
                    <span className="block font-medium text-slate-900">{token.name}</span>
                    <code className="text-xs text-muted-foreground">{token.prefix}…</code>
                  </div>
                  <Revoke token={token} onRevoke={setRevoking} />
                </div>
                <Scopes scopes={token.scopes} />
                <p className="text-xs text-slate-700">
                  Created {formatDateTime(token.createdAt)} by <CreatedBy token={token} />
                </p>
                <p className="text-xs text-slate-700">Last used: {lastUsed(token)}</p>
              </div>
            )}
          />
        )}
      </CardContent>
      {creating ? <CreateTokenDialog onClose={() => setCreating(false)} /> : null}
      {revoking ? <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} /> : null}
    </Card>
  );
}

const lastUsed = (token: ApiTokenDto) => (token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "Never");

function Scopes({ scopes }: { scopes: ApiTokenDto["scopes"] }) {
  return (
    <span className="flex flex-wrap gap-1">
      {scopes.map((scope) => (
        <Badge key={scope} className="border-slate-200 bg-slate-100 font-mono text-slate-700">
          {scope}
        </Badge>
      ))}
    </span>
  );
}

/** Who created it; a token acts only while its creator is an admin. */
function CreatedBy({ token }: { token: ApiTokenDto }) {
  return (
    <>
      <span>{token.createdByName ?? "A deleted account"}</span>
      {!token.ownerActive && !token.revokedAt ? (
        <span className="block text-xs text-destructive">Stopped: no longer an admin</span>
      ) : null}
    </>
  );
}

function Revoke({ token, onRevoke }: { token: ApiTokenDto; onRevoke: (token: ApiTokenDto) => void }) {
  if (token.revokedAt)
    return <span className="text-xs text-muted-foreground">Revoked {formatDateTime(token.revokedAt)}</span>;
  return (
    <Button
      size="sm"
      variant="outline"
      className="text-destructive"
      onClick={() => onRevoke(token)}
      aria-label={`Revoke ${token.name}`}
    >
      Revoke
    </Button>
  );
}
