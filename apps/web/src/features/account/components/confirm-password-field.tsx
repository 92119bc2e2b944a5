import type * as React from "react";
import { Field, Input } from "@/components/ui/input";

/** What a form says when the password was left out: the server's own message for a missing one. */
export const PASSWORD_MISSING = "Enter your password.";

/**
 * The account's password, typed again before a change to how the person signs in or passes the second factor (adding
 * or revoking a passkey, the authenticator app, recovery codes): the server asks for it in the same request, so a
 * session alone never makes such a change. A wrong one is shown under the field (the server's `password` message).
 */
export function ConfirmPasswordField({
  id,
  value,
  onChange,
  error,
  hint,
  autoFocus,
  inputRef,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint: React.ReactNode;
  autoFocus?: boolean;
  inputRef?: React.Ref<HTMLInputElement>;
}) {
  return (
    <Field id={id} label="Your password" hint={hint} error={error}>
      <Input
        id={id}
        ref={inputRef}
        type="password"
        autoComplete="current-password"
        autoFocus={autoFocus}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
