import { ForgotPasswordPage } from "@/features/people/components/forgot-password-page";
import { useDocumentTitle } from "@/lib/document-title";

export default function ForgotPasswordPageRoute() {
  useDocumentTitle("Forgot password");
  return <ForgotPasswordPage />;
}
