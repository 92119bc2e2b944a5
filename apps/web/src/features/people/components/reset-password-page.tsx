import { Link, useNavigate, useSearchParams } from "react-router";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useResetLink, useResetPassword } from "../api/password-reset";
import { AuthCard } from "./auth-card";
import { useNewPassword, weakPasswordReasons } from "./new-password-fields";

/** /reset-password?token=…: a new password; every session of the account ends, then the person signs in. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const reset = useResetPassword();
  const navigate = useNavigate();
  const password = useNewPassword();
  const link = useResetLink(token);

  if (token && link.isError) {
    return (
      <AuthCard heading="Reset your password" title="This link cannot be used" description={errorMessage(link.error)}>
        <Link className="text-sm text-blue-700 underline" to="/forgot-password">
          Ask for a new link
        </Link>
      </AuthCard>
    );
  }

  if (!token) {
    return (
      <AuthCard
        heading="Reset your password"
        title="This link is incomplete"
        description="Open it again from the email."
      >
        <Link className="text-sm text-blue-700 underline" to="/forgot-password">
          Ask for a new link
        </Link>
      </AuthCard>
    );
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!password.check()) return;
    reset.mutate(
      { token, password: password.password },
      {
        onSuccess: () => {
          toast.success("Password changed", "You were signed out everywhere. Sign in with your new password.");
          navigate("/login", { replace: true });
        },
        onError: (error) => {
          const reasons = weakPasswordReasons(error);
          if (reasons) password.setReasons(reasons);
          toast.error("Could not reset the password", errorMessage(error));
        },
      },
    );
  }

  return (
    <AuthCard
      heading="Reset your password"
      title="Choose a new password"
      description="Changing it signs you out on every device."
    >
      <form className="grid gap-4" onSubmit={submit} noValidate>
        {password.fields}
        {reset.isError && !weakPasswordReasons(reset.error) ? (
          <p className="text-sm text-destructive" role="alert">
            {errorMessage(reset.error)}{" "}
            <Link className="text-blue-700 underline" to="/forgot-password">
              Ask for a new link
            </Link>
          </p>
        ) : null}
        <Button type="submit" disabled={reset.isPending}>
          {reset.isPending ? "Saving..." : "Set new password"}
        </Button>
      </form>
    </AuthCard>
  );
}
