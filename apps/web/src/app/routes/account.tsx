import { PageHeader } from "@/components/page-header";
import { ChangePasswordForm } from "@/features/account/components/change-password-form";
import { EmailPreferencesForm } from "@/features/account/components/email-preferences-form";
import { ProfileForm } from "@/features/account/components/profile-form";

/** Every role's own account: profile, email notifications and password. */
export default function AccountPage() {
  return (
    <>
      <PageHeader title="Account" description="Your profile, the email you receive, and your password." />
      <div className="grid gap-6">
        <ProfileForm />
        <EmailPreferencesForm />
        <ChangePasswordForm />
      </div>
    </>
  );
}
