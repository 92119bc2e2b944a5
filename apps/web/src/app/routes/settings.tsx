import { PageHeader } from "@/components/page-header";
import { ChangePasswordForm } from "@/features/account/components/change-password-form";
import { useSession } from "@/features/auth/api/session";
import { Webhooks } from "@/features/integrations/webhooks";
import { InboundRequests } from "@/features/public-requests/components/inbound-requests";

export default function SettingsPage() {
  const { data: user } = useSession();
  return (
    <>
      <PageHeader title="Settings" description="Your account, and for admins the requests that reach us." />
      <div className="grid gap-6">
        {user?.role === "admin" ? <InboundRequests /> : null}
        {user?.role === "admin" ? (
          <section aria-labelledby="integrations-heading" className="grid min-w-0 gap-4">
            <h2 id="integrations-heading" className="text-lg font-semibold tracking-tight">
              Integrations
            </h2>
            <Webhooks />
          </section>
        ) : null}
        <ChangePasswordForm />
      </div>
    </>
  );
}
