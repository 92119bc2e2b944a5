import { FingerprintIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api-client";
import { passkeyErrorMessage } from "@/lib/passkey-error";
import { passkeyAssertion } from "../api/passkeys";
import { type SecondFactorInput, useSecondFactorStatus } from "../api/second-factor";
import { ConfirmPasswordField, PASSWORD_MISSING } from "./confirm-password-field";

/**
 * A passkey (when the person has one) or the code from the authenticator app (or, switched, one recovery code) with
 * Cancel and a submit button. A refusal is shown under the field; the form stays open for another try. With
 * `passwordHint` (a change to the second factor) the account's password is asked first and sent along; a wrong one
 * is shown under it and the keyboard goes back to it.
 */
export function SecondFactorCodeForm({
  submitLabel,
  pendingLabel,
  onSubmit,
  onCancel,
  onModeChange,
  passwordHint,
}: {
  submitLabel: string;
  pendingLabel: string;
  /** `password` is what was typed in the password field ("" when none is asked). */
  onSubmit: (input: SecondFactorInput, password: string) => Promise<unknown>;
  onCancel: () => void;
  /** Told when the person switches between the app's code and a recovery code, so the words around can follow. */
  onModeChange?: (recovery: boolean) => void;
  passwordHint?: ReactNode;
}) {
  const id = useId();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string>();
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string>();
  const passwordInput = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const status = useSecondFactorStatus().data;
  // Until the status is known the code field shows, as it did before passkeys.
  const hasTotp = status?.totp ?? true;
  const hasPasskeys = (status?.passkeys ?? 0) > 0;

  /** A missing password is said before the device or the code is asked for; false when the form cannot go on. */
  function passwordGiven(): boolean {
    setPasswordError(undefined);
    if (passwordHint === undefined || password) return true;
    setPasswordError(PASSWORD_MISSING);
    passwordInput.current?.focus();
    return false;
  }

  /** A wrong password goes under its field, with the keyboard; true when the refusal was about the password. */
  function passwordRefused(failure: unknown): boolean {
    const wrong = failure instanceof ApiError ? failure.fieldErrors.password : undefined;
    if (!wrong) return false;
    setPasswordError(wrong);
    passwordInput.current?.focus();
    return true;
  }

  async function withPasskey() {
    setError(undefined);
    if (!passwordGiven()) return;
    setPending(true);
    try {
      await onSubmit({ passkey: await passkeyAssertion() }, password);
    } catch (failure) {
      if (!passwordRefused(failure)) setError(passkeyErrorMessage(failure));
    } finally {
      setPending(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    if (!passwordGiven()) return;
    if (!value.trim()) {
      setError(
        useRecovery ? "Enter one of your recovery codes." : "Enter the 6-digit code from your authenticator app.",
      );
      return;
    }
    setPending(true);
    try {
      await onSubmit(useRecovery ? { recoveryCode: value } : { code: value }, password);
    } catch (failure) {
      if (passwordRefused(failure)) return;
      const fields = failure instanceof ApiError ? failure.fieldErrors : {};
      setError(fields.code ?? fields.recoveryCode ?? errorMessage(failure));
    } finally {
      setPending(false);
    }
  }

  const passwordField =
    passwordHint === undefined ? null : (
      <ConfirmPasswordField
        id={`${id}-password`}
        value={password}
        onChange={setPassword}
        error={passwordError}
        hint={passwordHint}
        autoFocus
        inputRef={passwordInput}
      />
    );

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
        {passwordField}
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
      {passwordField}
      {passkeyButton}
      <Field id={fieldId} label={useRecovery ? "Recovery code" : "Authentication code"} error={error}>
        <Input
          id={fieldId}
          value={value}
          autoFocus={passwordHint === undefined}
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
