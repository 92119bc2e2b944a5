import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { EmailVerifiedDto } from "@tranche/domain";
import { useEffect, useRef } from "react";
import { Link, useSearchParams } from "react-router";
import { api, errorMessage } from "@/lib/api-client";
import { AuthCard } from "./auth-card";

/** /verify-email?token=…: the link emailed at sign-up; opening it confirms the address once. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const queryClient = useQueryClient();
  const verify = useMutation({
    mutationFn: () =>
      api<EmailVerifiedDto>("/auth/verify-email", {
        method: "POST",
        body: { token },
        redirectOn401: false,
      }),
    // A signed-in account page shows the address as confirmed from now on.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["session"] }),
  });
  const { mutate } = verify;
  // Used once, when the page opens: a second run (a remount) would only say the link was used.
  const sent = useRef("");
  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    mutate();
  }, [token, mutate]);

  if (!token) {
    return (
      <AuthCard
        heading="Confirm your email"
        title="This link is incomplete"
        description="Open it again from the email."
      >
        <Link className="text-sm text-blue-700 underline" to="/login">
          Sign in
        </Link>
      </AuthCard>
    );
  }
  if (verify.isError) {
    return (
      <AuthCard heading="Confirm your email" title="This link cannot be used" description={errorMessage(verify.error)}>
        <Link className="text-sm text-blue-700 underline" to="/account">
          Go to your account
        </Link>
      </AuthCard>
    );
  }
  if (verify.isSuccess) {
    return (
      <AuthCard
        heading="Confirm your email"
        title="Your email is confirmed"
        description={`${verify.data.email} is confirmed as your address.`}
      >
        <Link className="text-sm text-blue-700 underline" to="/dashboard">
          Continue to Tranche
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard heading="Confirm your email" title="Confirming your email…" description="One moment.">
      <p role="status" className="text-sm text-muted-foreground">
        Checking the link…
      </p>
    </AuthCard>
  );
}
