import { ResetPasswordPage } from "@/features/people/components/reset-password-page";
import { useDocumentTitle } from "@/lib/document-title";

export default function ResetPasswordPageRoute() {
  useDocumentTitle("Reset password");
  return <ResetPasswordPage />;
}
