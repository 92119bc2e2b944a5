import { PageHeader } from "@/components/page-header";
import { ChangePasswordForm } from "@/features/account/components/change-password-form";
import { useSession } from "@/features/auth/api/session";
import { ApiTokens } from "@/features/integrations/components/api-tokens";
import { Webhooks } from "@/features/integrations/components/webhooks";
import { EmailOutbox } from "@/features/people/components/email-outbox";
import { InboundRequests } from "@/features/public-requests/components/inbound-requests";

export default function SettingsPage() {
  const { data: user } = useSession();
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your account, and for admins the requests that reach us and the integrations."
      />
      <div className="grid gap-6">
        {user?.role === "admin" ? <InboundRequests /> : null}
        {user?.role === "admin" ? (
          <section aria-labelledby="integrations-title" className="grid min-w-0 gap-4">
            <h2 id="integrations-title" className="text-lg font-semibold text-slate-900">
              Integrations
            </h2>
            <ApiTokens />
            <Webhooks />
          </section>
        ) : null}
        {user?.role === "admin" ? <EmailOutbox /> : null}
        <ChangePasswordForm />
      </div>
    </>
  );
}
