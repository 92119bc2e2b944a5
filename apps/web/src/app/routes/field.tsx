import { useOutletContext } from "react-router";
import { FieldAssignments } from "@/features/field/components/field-assignments";
import { useDocumentTitle } from "@/lib/document-title";
import type { FieldContext } from "./field-shell";

/**
 * /field: the verifier's assignments by urgency, a page at a time and searchable offline, with distance and
 * directions, and what waits to be sent.
 */
export default function FieldPage() {
  const { user } = useOutletContext<FieldContext>();
  useDocumentTitle("Field");
  return <FieldAssignments user={user} />;
}
