import { FIELD_URGENCY_LABELS, type FieldUrgency } from "@tranche/domain";
import { Badge } from "@/components/ui/badge";

const COLOURS: Record<FieldUrgency, string> = {
  overdue: "border-red-200 bg-red-100 text-red-800",
  due_soon: "border-amber-200 bg-amber-100 text-amber-900",
  resubmitted: "border-violet-200 bg-violet-100 text-violet-800",
  new: "border-slate-200 bg-slate-100 text-slate-700",
};

export function UrgencyBadge({ urgency }: { urgency: FieldUrgency }) {
  return <Badge className={COLOURS[urgency]}>{FIELD_URGENCY_LABELS[urgency]}</Badge>;
}
