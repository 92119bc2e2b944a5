import {
  API_SCOPE_LABELS,
  API_SCOPES,
  type ApiScope,
  type ApiTokenDto,
  createApiTokenSchema,
  formatDateTime,
} from "@tranche/domain";
import { CheckIcon, CopyIcon, KeyRoundIcon, PlusIcon } from "lucide-react";
import { useId, useState } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { EmptyState, Skeleton } from "@/components/ui/feedback";
import { Field, Input } from "@/components/ui/input";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from "./api/api-tokens";

/** Settings → Integrations: scoped tokens for custodians and other machine clients (admins). */
export function ApiTokens() {
  const tokens = useApiTokens();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiTokenDto | null>(null);
  const items = tokens.data?.items ?? [];
  return (
    // min-w-0 and a relative scroll box: the wide table (and its visually hidden header) scroll inside the
    // card instead of widening the whole page on a phone.
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
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(tokens.error, "Could not load API tokens.")}
          </p>
        ) : items.length === 0 ? (
          <EmptyState title="No API tokens yet">Create one for each custodian or integration.</EmptyState>
        ) : (
          <ScrollRegion label="API tokens" className="relative rounded-md border">
            <table className="w-full min-w-[52rem] text-left text-sm">
              <caption className="sr-only">API tokens, newest first</caption>
              <thead className="bg-muted text-slate-700">
                <tr>
                  {["Name", "Scopes", "Created", "Created by", "Last used", ""].map((h, i) => (
                    <th key={h || i} scope="col" className="px-3 py-2 font-medium">
                      {h || <span className="sr-only">Actions</span>}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y">
                {items.map((token) => (
                  <tr key={token.id} className="align-top" data-testid="api-token-row">
                    <td className="px-3 py-2">
                      <span className="block font-medium text-slate-900">{token.name}</span>
                      <code className="text-xs text-muted-foreground">{token.prefix}…</code>
                    </td>
                    <td className="px-3 py-2">
                      <span className="flex flex-wrap gap-1">
                        {token.scopes.map((scope) => (
                          <Badge key={scope} className="border-slate-200 bg-slate-100 font-mono text-slate-700">
                            {scope}
                          </Badge>
                        ))}
                      </span>
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-slate-700">{formatDateTime(token.createdAt)}</td>
                    <td className="px-3 py-2 text-slate-700">
                      <span className="block">{token.createdByName ?? "A deleted account"}</span>
                      {/* A token acts only while its creator is an admin. */}
                      {!token.ownerActive && !token.revokedAt ? (
                        <span className="block text-xs text-destructive">Stopped: no longer an admin</span>
                      ) : null}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-slate-700">
                      {token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "Never"}
                    </td>
                    <td className="px-3 py-2 text-right">
                      {token.revokedAt ? (
                        <span className="text-xs text-muted-foreground">Revoked {formatDateTime(token.revokedAt)}</span>
                      ) : (
                        <Button
                          size="sm"
                          variant="outline"
                          className="text-destructive"
                          onClick={() => setRevoking(token)}
                          aria-label={`Revoke ${token.name}`}
                        >
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </CardContent>
      {creating ? <CreateTokenDialog onClose={() => setCreating(false)} /> : null}
      {revoking ? <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} /> : null}
    </Card>
  );
}

function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateApiToken();
  const id = useId();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiScope[]>(["releases:read", "releases:write"]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = createApiTokenSchema.safeParse({ name, scopes });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? "_"), i.message])));
      return;
    }
    try {
      const result = await create.mutateAsync({ name, scopes });
      setCreated({ name: result.name, token: result.token });
      toast.success("API token created", "Copy it now: it will not be shown again.");
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) setErrors(err.fieldErrors);
      else toast.error("Could not create the token", errorMessage(err));
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {created ? (
          <CreatedToken name={created.name} token={created.token} onDone={onClose} />
        ) : (
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <DialogHeader>
              <DialogTitle>Create API token</DialogTitle>
              <DialogDescription>
                Give each custodian or integration its own token, with only the scopes it needs.
              </DialogDescription>
            </DialogHeader>
            <Field id={`${id}-name`} label="Name" error={errors.name}>
              <Input
                id={`${id}-name`}
                value={name}
                maxLength={100}
                placeholder="e.g. Northwind Custody"
                onChange={(e) => {
                  setName(e.target.value);
                  setErrors({});
                }}
                aria-invalid={errors.name ? true : undefined}
              />
            </Field>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium text-slate-800">Scopes</legend>
              {API_SCOPES.map((scope) => (
                <label key={scope} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={scopes.includes(scope)}
                    onChange={(e) => {
                      setScopes((current) =>
                        e.target.checked ? [...current, scope] : current.filter((s) => s !== scope),
                      );
                      setErrors({});
                    }}
                  />
                  <code className="text-xs">{scope}</code>
                  <span className="text-muted-foreground">{API_SCOPE_LABELS[scope]}</span>
                </label>
              ))}
              {errors.scopes ? (
                <p role="alert" className="text-sm font-medium text-destructive">
                  {errors.scopes}
                </p>
              ) : null}
            </fieldset>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? "Creating..." : "Create token"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The token, once: it is stored hashed and cannot be shown again. */
function CreatedToken({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(token);
      setCopied(true);
    } catch {
      toast.error("Could not copy", "Select the token and copy it by hand.");
    }
  }
  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <KeyRoundIcon className="size-5" aria-hidden /> Token for {name}
        </DialogTitle>
        <DialogDescription>Copy it now and store it safely. It will not be shown again.</DialogDescription>
      </DialogHeader>
      <div className="flex items-stretch gap-2">
        <Input
          readOnly
          value={token}
          aria-label="New API token"
          className="font-mono text-xs"
          onFocus={(e) => e.target.select()}
        />
        <Button type="button" variant="outline" onClick={copy} aria-label="Copy token">
          {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}

function RevokeTokenDialog({ token, onClose }: { token: ApiTokenDto; onClose: () => void }) {
  const revoke = useRevokeApiToken();
  async function confirm(event: React.MouseEvent) {
    event.preventDefault();
    try {
      await revoke.mutateAsync(token.id);
      toast.success("API token revoked", `${token.name} can no longer call the API.`);
    } catch (err) {
      toast.error("Could not revoke the token", errorMessage(err));
    }
    onClose();
  }
  return (
    <AlertDialog open onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogTitle>Revoke “{token.name}”?</AlertDialogTitle>
        <AlertDialogDescription>
          Every request with this token will be refused from now on. This cannot be undone.
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={confirm} disabled={revoke.isPending}>
            {revoke.isPending ? "Revoking..." : "Revoke"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
