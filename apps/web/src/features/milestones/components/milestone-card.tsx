import { type Currency, formatLongDate, formatMoney, type MilestoneDto, milestoneLockReason } from "@tranche/domain";
import { CalendarIcon, PencilIcon, Trash2Icon } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { MilestoneStatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";

export function MilestoneCard({
  milestone,
  currency,
  onEdit,
  onDelete,
}: {
  milestone: MilestoneDto;
  currency: Currency;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const locked = milestoneLockReason(milestone.status);
  const reasonId = useId();
  const describedBy = locked ? reasonId : undefined;
  return (
    <Card className="flex flex-col" data-testid="milestone-card">
      <CardHeader>
        <div className="flex items-start justify-between gap-3">
          <CardTitle className="min-w-0 wrap-anywhere">{milestone.title}</CardTitle>
          <MilestoneStatusBadge status={milestone.status} />
        </div>
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-3 text-sm">
        <p className="line-clamp-3 wrap-anywhere text-muted-foreground">{milestone.description}</p>
        <p className="flex items-center gap-2 text-slate-700">
          <CalendarIcon className="size-4 text-slate-500" aria-hidden />
          Due {formatLongDate(milestone.dueDate)}
        </p>
        <p className="text-base font-semibold text-slate-900">{formatMoney(milestone.capitalAmount, currency)}</p>
      </CardContent>
      <CardFooter className="flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <Link to={`/milestones/${milestone.id}`}>View Details</Link>
        </Button>
        {onEdit ? (
          <Button
            variant="ghost"
            size="sm"
            onClick={onEdit}
            disabled={!!locked}
            aria-describedby={describedBy}
            aria-label={`Edit ${milestone.title}`}
          >
            <PencilIcon aria-hidden /> Edit
          </Button>
        ) : null}
        {onDelete ? (
          <Button
            variant="ghost"
            size="sm"
            className="text-destructive hover:text-destructive"
            onClick={onDelete}
            disabled={!!locked}
            aria-describedby={describedBy}
            aria-label={`Delete ${milestone.title}`}
          >
            <Trash2Icon aria-hidden /> Delete
          </Button>
        ) : null}
        {(onEdit || onDelete) && locked ? (
          <p id={reasonId} className="w-full text-xs text-muted-foreground">
            {locked}
          </p>
        ) : null}
      </CardFooter>
    </Card>
  );
}
