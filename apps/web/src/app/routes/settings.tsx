import { PageHeader } from "@/components/page-header";
import { ChangePasswordForm } from "@/features/account/components/change-password-form";
import { useSession } from "@/features/auth/api/session";
import { InboundRequests } from "@/features/public-requests/components/inbound-requests";

export default function SettingsPage() {
  const { data: user } = useSession();
  return (
    <>
      <PageHeader title="Settings" description="Your account, and for admins the requests that reach us." />
      <div className="grid gap-6">
        {user?.role === "admin" ? <InboundRequests /> : null}
        <ChangePasswordForm />
      </div>
    </>
  );
}
