import { AcceptInvitationPage } from "@/features/people/components/accept-invitation-page";
import { useDocumentTitle } from "@/lib/document-title";

export default function AcceptInvitationPageRoute() {
  useDocumentTitle("Accept invitation");
  return <AcceptInvitationPage />;
}
