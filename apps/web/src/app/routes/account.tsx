import { displayLabel, ROLE_LABELS } from "@tranche/domain";
import { useEffect } from "react";
import { useLocation } from "react-router";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ChangePasswordForm } from "@/features/account/components/change-password-form";
import { SecuritySecondFactor } from "@/features/account/components/security-second-factor";
import { SecuritySessions } from "@/features/account/components/security-sessions";
import { useSession } from "@/features/auth/api/session";

/** Every role's own account: who they are signed in as, and Security (password, second factor, sessions). */
export default function AccountPage() {
  const { data: user } = useSession();
  const { hash } = useLocation();
  // The second-factor dialog links here (/account#security) when an action needs one set up first.
  useEffect(() => {
    if (hash === "#security") document.getElementById("security")?.scrollIntoView();
  }, [hash]);
  return (
    <>
      <PageHeader title="Account" description="Your sign-in details, password, second factor and sessions." />
      <div className="grid gap-6">
        {user ? (
          <Card>
            <CardHeader>
              <CardTitle>Signed in as</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-2 text-sm sm:grid-cols-[8rem_1fr]">
                <dt className="text-muted-foreground">Name</dt>
                <dd className="font-medium text-slate-900">{user.name || displayLabel(user.email)}</dd>
                <dt className="text-muted-foreground">Email</dt>
                <dd className="font-medium text-slate-900">{user.email}</dd>
                <dt className="text-muted-foreground">Role</dt>
                <dd className="font-medium text-slate-900">{user.role ? ROLE_LABELS[user.role] : "No role"}</dd>
                {user.organization ? (
                  <>
                    <dt className="text-muted-foreground">Organization</dt>
                    <dd className="font-medium text-slate-900">{user.organization}</dd>
                  </>
                ) : null}
              </dl>
            </CardContent>
          </Card>
        ) : null}
        <section id="security" aria-labelledby="security-heading" className="grid scroll-mt-6 gap-6">
          <h2 id="security-heading" className="text-lg font-semibold tracking-tight">
            Security
          </h2>
          <ChangePasswordForm />
          <SecuritySecondFactor />
          <SecuritySessions />
        </section>
      </div>
    </>
  );
}
