import { formatCount } from "@tranche/domain";
import type { LucideIcon } from "lucide-react";
import type * as React from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

export function StatCard({
  title,
  icon: Icon,
  value,
  detail,
  testId,
}: {
  title: string;
  icon: LucideIcon;
  value: React.ReactNode;
  detail?: React.ReactNode;
  testId?: string;
}) {
  return (
    <Card data-testid={testId} role="group" aria-label={title}>
      <CardHeader className="flex-row items-center justify-between pb-2">
        <CardTitle className="text-sm font-medium text-slate-600">{title}</CardTitle>
        <Icon className="size-4 text-slate-500" aria-hidden />
      </CardHeader>
      <CardContent>
        <div className="text-2xl font-bold text-slate-900">
          {typeof value === "number" ? formatCount(value) : value}
        </div>
        {detail ? <div className="mt-1 text-xs text-muted-foreground">{detail}</div> : null}
      </CardContent>
    </Card>
  );
}
