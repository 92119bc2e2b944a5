import { Loader2Icon, RotateCwIcon } from "lucide-react";
import { Progress as ProgressPrimitive } from "radix-ui";
import type * as React from "react";
import { errorMessage } from "@/lib/api-client";
import { cn } from "@/lib/utils";
import { Button } from "./button";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" className={cn("inline-flex items-center justify-center", className)}>
      <Loader2Icon className="size-6 animate-spin text-slate-500" aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}

export function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("animate-pulse rounded-md bg-slate-200", className)} {...props} />;
}

export function Progress({ value, className, label }: { value: number; className?: string; label?: string }) {
  const clamped = Math.max(0, Math.min(100, value));
  return (
    <ProgressPrimitive.Root
      value={clamped}
      aria-label={label}
      className={cn("relative h-2 w-full overflow-hidden rounded-full bg-slate-200", className)}
    >
      <ProgressPrimitive.Indicator
        className="h-full bg-accent transition-transform"
        style={{ transform: `translateX(-${100 - clamped}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}

export function EmptyState({
  title,
  children,
  className,
}: {
  title: string;
  children?: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("rounded-lg border border-dashed bg-white px-6 py-10 text-center", className)}>
      <p className="font-medium text-slate-800">{title}</p>
      {children ? <div className="mt-2 text-sm text-muted-foreground">{children}</div> : null}
    </div>
  );
}

/** A list or panel that could not load: what failed, the server's reason, and a way to try again. */
export function LoadError({
  title,
  error,
  onRetry,
  className,
}: {
  title: string;
  error: unknown;
  onRetry: () => unknown;
  className?: string;
}) {
  return (
    <div role="alert" className={cn("rounded-lg border border-red-200 bg-red-50 px-6 py-8 text-center", className)}>
      <p className="font-medium text-red-900">{title}</p>
      <p className="mt-1 text-sm text-red-800">{errorMessage(error)}</p>
      <Button variant="outline" size="sm" className="mt-3" onClick={() => void onRetry()}>
        <RotateCwIcon aria-hidden /> Try again
      </Button>
    </div>
  );
}
