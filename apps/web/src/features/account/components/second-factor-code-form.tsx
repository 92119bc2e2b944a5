import { FingerprintIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api-client";
import { passkeyErrorMessage } from "@/lib/passkey-error";
import { passkeyAssertion } from "../api/passkeys";
import { type SecondFactorInput, useSecondFactorStatus } from "../api/second-factor";

/**
 * A passkey (when the person has one) or the code from the authenticator app (or, switched, one recovery code) with
 * Cancel and a submit button. A refusal is shown under the field; the form stays open for another try.
 */
export function SecondFactorCodeForm({
  submitLabel,
  pendingLabel,
  onSubmit,
  onCancel,
  onModeChange,
}: {
  submitLabel: string;
  pendingLabel: string;
  onSubmit: (input: SecondFactorInput) => Promise<unknown>;
  onCancel: () => void;
  /** Told when the person switches between the app's code and a recovery code, so the words around can follow. */
  onModeChange?: (recovery: boolean) => void;
}) {
  const id = useId();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const status = useSecondFactorStatus().data;
  // Until the status is known the code field shows, as it did before passkeys.
  const hasTotp = status?.totp ?? true;
  const hasPasskeys = (status?.passkeys ?? 0) > 0;

  async function withPasskey() {
    setError(undefined);
    setPending(true);
    try {
      await onSubmit({ passkey: await passkeyAssertion() });
    } catch (failure) {
      setError(passkeyErrorMessage(failure));
    } finally {
      setPending(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!value.trim()) {
      setError(
        useRecovery ? "Enter one of your recovery codes." : "Enter the 6-digit code from your authenticator app.",
      );
      return;
    }
    setPending(true);
    try {
      await onSubmit(useRecovery ? { recoveryCode: value } : { code: value });
    } catch (failure) {
      const fields = failure instanceof ApiError ? failure.fieldErrors : {};
      setError(fields.code ?? fields.recoveryCode ?? errorMessage(failure));
    } finally {
      setPending(false);
    }
  }

  const fieldId = `${id}-code`;
  const passkeyButton = hasPasskeys ? (
    <Button type="button" variant={hasTotp ? "outline" : "default"} disabled={pending} onClick={withPasskey}>
      <FingerprintIcon className="mr-2 size-4" aria-hidden />
      Use a passkey
    </Button>
  ) : null;
  if (!hasTotp) {
    return (
      <div className="grid gap-4">
        {passkeyButton}
        {error ? (
          <p role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        </DialogFooter>
      </div>
    );
  }
  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      {passkeyButton}
      <Field id={fieldId} label={useRecovery ? "Recovery code" : "Authentication code"} error={error}>
        <Input
          id={fieldId}
          value={value}
          autoFocus
          autoComplete="one-time-code"
          inputMode={useRecovery ? "text" : "numeric"}
          placeholder={useRecovery ? "xxxxx-xxxxx" : "123456"}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          onChange={(e) => setValue(e.target.value)}
        />
      </Field>
      <div>
        <Button
          type="button"
          variant="link"
          className="h-auto px-0"
          onClick={() => {
            setUseRecovery(!useRecovery);
            onModeChange?.(!useRecovery);
            setValue("");
            setError(undefined);
          }}
        >
          {useRecovery ? "Use a code from the app instead" : "Use a recovery code instead"}
        </Button>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}
