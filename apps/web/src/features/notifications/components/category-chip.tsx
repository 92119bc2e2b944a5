import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

// The four known categories have their own style, as do releases; any other is neutral.
const CATEGORY_STYLES: Record<string, string> = {
  welcome: "border-violet-200 bg-violet-100 text-violet-800",
  account: "border-blue-200 bg-blue-100 text-blue-800",
  milestone: "border-amber-200 bg-amber-100 text-amber-900",
  verification: "border-green-200 bg-green-100 text-green-800",
  release: "border-teal-200 bg-teal-100 text-teal-900",
};
const NEUTRAL = "border-slate-200 bg-slate-100 text-slate-700";

export function CategoryChip({ category }: { category: string }) {
  return (
    <Badge data-testid="notification-category" className={cn("capitalize", CATEGORY_STYLES[category] ?? NEUTRAL)}>
      {category}
    </Badge>
  );
}
