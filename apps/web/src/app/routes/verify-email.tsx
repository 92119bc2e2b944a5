import { VerifyEmailPage } from "@/features/people/components/verify-email-page";
import { useDocumentTitle } from "@/lib/document-title";

export default function VerifyEmailPageRoute() {
  useDocumentTitle("Confirm your email");
  return <VerifyEmailPage />;
}
