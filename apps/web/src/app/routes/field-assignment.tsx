import { useOutletContext, useParams } from "react-router";
import { AssignmentVisit } from "@/features/field/components/assignment-visit";
import type { FieldContext } from "./field-shell";

/** /field/milestones/:id, the assignment page (notifications deep-link here). */
export default function FieldAssignmentPage() {
  const { user } = useOutletContext<FieldContext>();
  const { milestoneId = "" } = useParams();
  return <AssignmentVisit key={milestoneId} user={user} milestoneId={milestoneId} />;
}
