import { forgotPasswordSchema } from "@tranche/domain";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api-client";
import { useForgotPassword } from "../api/password-reset";
import { AuthCard } from "./auth-card";

/** /forgot-password: asks for an address and always answers the same, whether or not it has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string>();
  const forgot = useForgotPassword();

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = forgotPasswordSchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    forgot.mutate(parsed.data.email, { onError: (e) => setError(errorMessage(e)) });
  }

  return (
    <AuthCard
      heading="Forgot your password?"
      title="Reset your password"
      description="Enter the email you sign in with. We send a link to choose a new password."
    >
      {forgot.isSuccess ? (
        <div className="grid gap-4 text-sm" role="status">
          <p className="text-slate-800">{forgot.data.message}</p>
          <p className="text-slate-700">
            No email after a few minutes? Check your spam folder, or ask your administrator.
          </p>
          <Link className="text-blue-700 underline" to="/login">
            Back to sign in
          </Link>
        </div>
      ) : (
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <Field id="forgot-email" label="Email" error={error}>
            <Input
              id="forgot-email"
              type="email"
              autoComplete="email"
              value={email}
              aria-invalid={error ? true : undefined}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
          <Button type="submit" disabled={forgot.isPending}>
            {forgot.isPending ? "Sending..." : "Send reset link"}
          </Button>
          <Link className="text-sm text-blue-700 underline" to="/login">
            Back to sign in
          </Link>
        </form>
      )}
    </AuthCard>
  );
}
