import { useEffect } from "react";
import { useLocation } from "react-router";
import { PageHeader } from "@/components/page-header";
import { ChangePasswordForm } from "@/features/account/components/change-password-form";
import { EmailPreferencesForm } from "@/features/account/components/email-preferences-form";
import { ProfileForm } from "@/features/account/components/profile-form";
import { SecurityPasskeys } from "@/features/account/components/security-passkeys";
import { SecurityPush } from "@/features/account/components/security-push";
import { SecuritySecondFactor } from "@/features/account/components/security-second-factor";
import { SecuritySessions } from "@/features/account/components/security-sessions";

/**
 * Every role's own account: profile, the email they receive, and Security (password, passkeys, authenticator app,
 * push on this device, sessions).
 */
export default function AccountPage() {
  const { hash } = useLocation();
  // The second-factor dialog links here (/account#security) when an action needs one set up first.
  useEffect(() => {
    if (hash === "#security") document.getElementById("security")?.scrollIntoView();
  }, [hash]);
  return (
    <>
      <PageHeader
        title="Account"
        description="Your profile, the email you receive, your password, passkeys, second factor, push and sessions."
      />
      <div className="grid gap-6">
        <ProfileForm />
        <EmailPreferencesForm />
        <section id="security" aria-labelledby="security-heading" className="grid scroll-mt-6 gap-6">
          <h2 id="security-heading" className="text-lg font-semibold tracking-tight">
            Security
          </h2>
          <ChangePasswordForm />
          <SecurityPasskeys />
          <SecuritySecondFactor />
          <SecurityPush />
          <SecuritySessions />
        </section>
      </div>
    </>
  );
}
