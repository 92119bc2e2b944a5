import { ROLE_LABELS } from "@tranche/domain";
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/feedback";
import { Field, Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { errorMessage } from "@/lib/api-client";
import { useAcceptInvitation, useInvitationPreview } from "../api/invitations";
import { AuthCard } from "./auth-card";
import { useNewPassword, weakPasswordReasons } from "./new-password-fields";

/** /invite?token=…: the invited person sets name and password and is signed in with the invited role. */
export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string>();
  const password = useNewPassword();

  if (!token || preview.isError) {
    return (
      <AuthCard
        heading="Join Tranche"
        title="This invitation cannot be used"
        description={
          preview.error ? errorMessage(preview.error) : "The link is incomplete. Open it again from the email."
        }
      >
        <Link className="text-sm text-blue-700 underline" to="/login">
          Go to sign in
        </Link>
      </AuthCard>
    );
  }
  if (preview.isPending) return <Spinner className="min-h-[50vh] w-full" label="Checking your invitation" />;
  const invite = preview.data;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const nameOk = name.trim().length > 0;
    setNameError(nameOk ? undefined : "Full name is required.");
    if (!password.check() || !nameOk) return;
    accept.mutate(
      { token, name: name.trim(), password: password.password },
      {
        onSuccess: ({ user }) => {
          toast.success(
            "Welcome to Tranche",
            `You are signed in as ${user.role ? ROLE_LABELS[user.role] : "a member"}.`,
          );
          navigate("/dashboard", { replace: true });
        },
        onError: (error) => {
          const reasons = weakPasswordReasons(error);
          if (reasons) password.setReasons(reasons);
          toast.error("Could not accept the invitation", errorMessage(error));
        },
      },
    );
  }

  return (
    <AuthCard
      heading="Join Tranche"
      title="Accept your invitation"
      description={
        <>
          You are invited as <strong>{ROLE_LABELS[invite.role]}</strong>
          {invite.organization ? ` for ${invite.organization}` : ""}. Choose your name and a password for{" "}
          <strong className="break-all">{invite.email}</strong>.
        </>
      }
    >
      <form className="grid gap-4" onSubmit={submit} noValidate>
        <Field id="invite-name" label="Full Name" error={nameError}>
          <Input
            id="invite-name"
            autoComplete="name"
            value={name}
            aria-invalid={nameError ? true : undefined}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        {password.fields}
        <Button type="submit" disabled={accept.isPending}>
          {accept.isPending ? "Creating your account..." : "Create account and sign in"}
        </Button>
      </form>
    </AuthCard>
  );
}
