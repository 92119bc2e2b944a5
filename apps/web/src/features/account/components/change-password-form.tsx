import { changePasswordSchema, fieldErrors } from "@tranche/domain";
import { useState } from "react";
import { PasswordReasons } from "@/components/password-reasons";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ApiError, errorMessage } from "@/lib/api-client";
import { showErrorsThenFocus } from "@/lib/focus-field";
import { useFieldErrors } from "@/lib/use-field-errors";
import { useChangePassword } from "../api/change-password";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function ChangePasswordForm() {
  const [values, setValues] = useState(EMPTY);
  const { formRef, errors, show } = useFieldErrors();
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
    show(found);
    if (Object.keys(found).length || !parsed.success) return;
    change.mutate(parsed.data, {
      onSuccess: () => {
        setValues(EMPTY);
        toast.success("Password changed", "Your other sessions have been signed out.");
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === "weak_password") {
          const list = (error.details as { reasons?: string[] } | undefined)?.reasons ?? [];
          showErrorsThenFocus(() => setReasons(list), formRef.current);
          toast.error("Error changing password", error.message);
          return;
        }
        if (error instanceof ApiError && error.status === 400) {
          show(error.fieldErrors);
        }
        toast.error("Error changing password", errorMessage(error));
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold leading-tight tracking-tight">Change password</h2>
        <CardDescription>Changing it signs you out everywhere else.</CardDescription>
      </CardHeader>
      <CardContent>
        <form ref={formRef} className="grid max-w-md gap-4" onSubmit={submit} noValidate>
          <Field id="currentPassword" label="Current password" error={errors.currentPassword}>
            <Input
              id="currentPassword"
              type="password"
              autoComplete="current-password"
              value={values.currentPassword}
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
              // The server's reasons for a weak password are listed below the form, not under the field.
              aria-invalid={reasons.length ? true : undefined}
              aria-describedby={reasons.length ? "new-password-reasons" : undefined}
              onChange={set("newPassword")}
            />
          </Field>
          <Field id="confirmPassword" label="Confirm new password" error={errors.confirmPassword}>
            <Input
              id="confirmPassword"
              type="password"
              autoComplete="new-password"
              value={values.confirmPassword}
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
