import { API_SCOPE_LABELS, API_SCOPES, type ApiScope, createApiTokenSchema } from "@tranche/domain";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useFieldErrors } from "@/lib/use-field-errors";
import { useCreateApiToken } from "../api/api-tokens";
import { CreatedToken } from "./created-token";

/** Name a token and choose its scopes; once created, the token itself is shown in the same dialog, once. */
export function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateApiToken();
  const id = useId();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<ApiScope[]>(["releases:read", "releases:write"]);
  const { formRef, errors, setErrors, show } = useFieldErrors();
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = createApiTokenSchema.safeParse({ name, scopes });
    if (!parsed.success) {
      show(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? "_"), i.message])));
      return;
    }
    try {
      const result = await create.mutateAsync({ name, scopes });
      setCreated({ name: result.name, token: result.token });
      toast.success("API token created", "Copy it now: it will not be shown again.");
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length > 0) show(err.fieldErrors);
      else toast.error("Could not create the token", errorMessage(err));
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {created ? (
          <CreatedToken name={created.name} token={created.token} onDone={onClose} />
        ) : (
          <form ref={formRef} onSubmit={submit} className="grid gap-4" noValidate>
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
