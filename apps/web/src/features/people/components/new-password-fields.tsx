import { useState } from "react";
import { PasswordReasons } from "@/components/password-reasons";
import { Field, Input } from "@/components/ui/input";

export const PASSWORD_HINT = "At least 12 characters. A few unrelated words make a strong password.";

/** A new password and its confirmation; `check` says what is wrong with them, or null. */
export function useNewPassword() {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [reasons, setReasons] = useState<string[]>([]);
  return {
    password,
    check(): boolean {
      const found: typeof errors = {};
      if (password.length < 12) found.password = "Password must be at least 12 characters.";
      else if (password !== confirm) found.confirm = "The two passwords do not match.";
      setErrors(found);
      setReasons([]);
      return Object.keys(found).length === 0;
    },
    setReasons,
    fields: (
      <>
        <Field id="new-password" label="New password" error={errors.password} hint={PASSWORD_HINT}>
          <Input
            id="new-password"
            type="password"
            autoComplete="new-password"
            value={password}
            aria-invalid={errors.password || reasons.length ? true : undefined}
            aria-describedby={reasons.length ? "new-password-reasons" : undefined}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <Field id="confirm-password" label="Confirm new password" error={errors.confirm}>
          <Input
            id="confirm-password"
            type="password"
            autoComplete="new-password"
            value={confirm}
            aria-invalid={errors.confirm ? true : undefined}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </Field>
        <PasswordReasons id="new-password-reasons" reasons={reasons} />
      </>
    ),
  };
}

/** The reasons of a 422 weak_password answer, if that is what the error is. */
export function weakPasswordReasons(error: unknown): string[] | null {
  const e = error as { code?: string; details?: { reasons?: string[] } } | null;
  return e?.code === "weak_password" ? (e.details?.reasons ?? []) : null;
}
