import { changePasswordSchema, fieldErrors } from "@tranche/domain";
import { useState } from "react";
import { PasswordReasons } from "@/components/password-reasons";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { useChangePassword } from "../api/change-password";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

/**
 * Focus goes to the first field with an error (the ids are the field names): the submit button is disabled while
 * the request runs, and without this a keyboard user was left at the page's start after "Current password is
 * incorrect.".
 */
function focusFirstError(errors: Record<string, string>) {
  const first = (Object.keys(EMPTY) as (keyof typeof EMPTY)[]).find((name) => errors[name]);
  if (first) document.getElementById(first)?.focus();
}

export function ChangePasswordForm() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [reasons, setReasons] = useState<string[]>([]);
  const change = useChangePassword();

  const set = (name: keyof typeof EMPTY) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [name]: event.target.value }));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setReasons([]);
    const found: Record<string, string> = {};
    if (!values.currentPassword) found.currentPassword = "Current password is required.";
    const parsed = changePasswordSchema.safeParse({
      currentPassword: values.currentPassword,
      newPassword: values.newPassword,
    });
    if (!parsed.success)
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) found[field] ??= message;
    if (!found.newPassword && values.newPassword !== values.confirmPassword)
      found.confirmPassword = "The two new passwords do not match.";
    setErrors(found);
    focusFirstError(found);
    if (Object.keys(found).length || !parsed.success) return;
    change.mutate(parsed.data, {
      onSuccess: () => {
        setValues(EMPTY);
        toast.success("Password changed", "Your other sessions have been signed out.");
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === "weak_password") {
          setReasons((error.details as { reasons?: string[] } | undefined)?.reasons ?? []);
          focusFirstError({ newPassword: error.message });
          toast.error("Error changing password", error.message);
          return;
        }
        if (error instanceof ApiError && error.status === 400) {
          setErrors(error.fieldErrors);
          focusFirstError(error.fieldErrors);
        }
        toast.error("Error changing password", errorMessage(error));
      },
    });
  }

  const describedBy = (name: string) => (errors[name] ? `${name}-error` : undefined);
  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Change password</h2>
        <CardDescription>Changing it signs you out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid max-w-md gap-4" onSubmit={submit} noValidate>
          <Field id="currentPassword" label="Current password" error={errors.currentPassword}>
            <Input
              id="currentPassword"
              type="password"
              autoComplete="current-password"
              value={values.currentPassword}
              aria-invalid={errors.currentPassword ? true : undefined}
              aria-describedby={describedBy("currentPassword")}
              onChange={set("currentPassword")}
            />
          </Field>
          <Field
            id="newPassword"
            label="New password"
            error={errors.newPassword}
            hint="At least 12 characters. A few unrelated words make a strong password."
          >
            <Input
              id="newPassword"
              type="password"
              autoComplete="new-password"
              value={values.newPassword}
              aria-invalid={errors.newPassword || reasons.length ? true : undefined}
              aria-describedby={reasons.length ? "new-password-reasons" : describedBy("newPassword")}
              onChange={set("newPassword")}
            />
          </Field>
          <Field id="confirmPassword" label="Confirm new password" error={errors.confirmPassword}>
            <Input
              id="confirmPassword"
              type="password"
              autoComplete="new-password"
              value={values.confirmPassword}
              aria-invalid={errors.confirmPassword ? true : undefined}
              aria-describedby={describedBy("confirmPassword")}
              onChange={set("confirmPassword")}
            />
          </Field>
          <PasswordReasons id="new-password-reasons" reasons={reasons} />
          <div>
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? "Changing..." : "Change password"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
