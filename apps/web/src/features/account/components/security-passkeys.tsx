import { PASSKEY_NAME_MAX, type PasskeyDto } from "@tranche/domain";
import { formatDistanceToNow } from "date-fns";
import { FingerprintIcon } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { LoadError, Skeleton } from "@/components/ui/feedback";
import { Field, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError } from "@/lib/api-client";
import { passkeyErrorMessage } from "@/lib/passkey-error";
import { usePasskeys, useRegisterPasskey, useRevokePasskey } from "../api/passkeys";
import { ConfirmPasswordField, PASSWORD_MISSING } from "./confirm-password-field";

const ago = (iso: string) => formatDistanceToNow(new Date(iso), { addSuffix: true });

/** Account → Security: passkeys (fingerprint, face or device PIN) that sign in and confirm actions. */
export function SecurityPasskeys() {
  const passkeys = usePasskeys();
  const [adding, setAdding] = useState(false);
  const [revoking, setRevoking] = useState<PasskeyDto | null>(null);

  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Passkeys</h2>
        <CardDescription>
          Sign in and confirm approvals with your fingerprint, face or device PIN instead of a code. Each passkey stays
          on the device that made it (or in its password manager); revoke one here if the device is lost.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {passkeys.isPending ? <Skeleton className="h-16" /> : null}
        {passkeys.isError ? (
          <LoadError title="Could not load your passkeys" error={passkeys.error} onRetry={() => passkeys.refetch()} />
        ) : null}
        {passkeys.data?.length ? (
          <ul className="divide-y rounded-md border" aria-label="Passkeys">
            {passkeys.data.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    <FingerprintIcon className="size-4 text-slate-500" aria-hidden />
                    <span className="break-all">{p.deviceName}</span>
                    {p.synced ? <Badge className="border-slate-200 bg-slate-50 text-slate-700">Synced</Badge> : null}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    Added {ago(p.createdAt)} · {p.lastUsedAt ? `last used ${ago(p.lastUsedAt)}` : "not used yet"}
                  </p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  className="text-destructive"
                  aria-label={`Revoke ${p.deviceName}`}
                  onClick={() => setRevoking(p)}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        ) : passkeys.data ? (
          <p className="text-sm text-muted-foreground">No passkeys yet.</p>
        ) : null}
        {adding ? (
          <AddPasskeyForm onDone={() => setAdding(false)} />
        ) : passkeys.data ? (
          <div>
            <Button variant="outline" onClick={() => setAdding(true)}>
              Add a passkey
            </Button>
          </div>
        ) : null}
      </CardContent>
      {revoking ? <RevokePasskeyDialog passkey={revoking} onClose={() => setRevoking(null)} /> : null}
    </Card>
  );
}

function AddPasskeyForm({ onDone }: { onDone: () => void }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string>();
  const [passwordError, setPasswordError] = useState<string>();
  const register = useRegisterPasskey();

  function submit(event: FormEvent) {
    event.preventDefault();
    setPasswordError(undefined);
    if (!name.trim()) {
      setError("Name this passkey, e.g. “Work laptop”.");
      return;
    }
    if (!password) {
      setPasswordError(PASSWORD_MISSING);
      return;
    }
    register.mutate(
      { name: name.trim(), password },
      {
        onSuccess: (passkey) => {
          toast.success("Passkey added", `"${passkey.deviceName}" can now sign you in and confirm actions.`);
          onDone();
        },
        onError: (failure) => {
          const wrongPassword = failure instanceof ApiError ? failure.fieldErrors.password : undefined;
          if (wrongPassword) setPasswordError(wrongPassword);
          else setError(passkeyErrorMessage(failure));
        },
      },
    );
  }

  return (
    <form className="grid max-w-sm gap-3" onSubmit={submit} noValidate>
      <Field
        id="passkey-name"
        label="Device name"
        hint="So you can tell your passkeys apart, e.g. “Work laptop” or “Phone”."
        error={error}
      >
        <Input
          id="passkey-name"
          value={name}
          maxLength={PASSKEY_NAME_MAX}
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "passkey-name-error" : undefined}
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <ConfirmPasswordField
        id="passkey-password"
        value={password}
        onChange={setPassword}
        error={passwordError}
        hint="A passkey signs you in without it, so confirm it's you."
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={register.isPending}>
          {register.isPending ? "Waiting for your device..." : "Create passkey"}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * Asks before revoking a passkey, with the password typed again (the server refuses it otherwise). Focus starts in the
 * password field; a wrong password is shown under it and the dialog stays open, any other refusal closes it with a
 * toast, as the other confirmations do.
 */
function RevokePasskeyDialog({ passkey, onClose }: { passkey: PasskeyDto; onClose: () => void }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const revoke = useRevokePasskey();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError(PASSWORD_MISSING);
      input.current?.focus();
      return;
    }
    revoke.mutate(
      { id: passkey.id, password },
      {
        onSuccess: () => {
          toast.success("Passkey revoked", `"${passkey.deviceName}" can no longer be used.`);
          onClose();
        },
        onError: (failure) => {
          const wrongPassword = failure instanceof ApiError ? failure.fieldErrors.password : undefined;
          if (wrongPassword) {
            setError(wrongPassword);
            input.current?.focus();
            return;
          }
          toast.error("Could not revoke the passkey", passkeyErrorMessage(failure));
          onClose();
        },
      },
    );
  }

  return (
    <AlertDialog open onOpenChange={(open) => !open && !revoke.isPending && onClose()}>
      <AlertDialogContent
        onOpenAutoFocus={(event) => {
          // The password is what is asked: the keyboard starts there, not on Cancel.
          event.preventDefault();
          input.current?.focus();
        }}
      >
        <AlertDialogTitle>{`Revoke "${passkey.deviceName}"?`}</AlertDialogTitle>
        <AlertDialogDescription>
          It will no longer sign you in or confirm actions, and your other devices will be asked to confirm again.
        </AlertDialogDescription>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <ConfirmPasswordField
            id="revoke-passkey-password"
            value={password}
            onChange={setPassword}
            error={error}
            hint="Asked for every change to how you sign in."
            inputRef={input}
          />
          <AlertDialogFooter>
            <AlertDialogCancel disabled={revoke.isPending}>Cancel</AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={revoke.isPending}>
              {revoke.isPending ? "Revoking..." : "Revoke passkey"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
