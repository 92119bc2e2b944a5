import type * as React from "react";
import { useId } from "react";
import { Button } from "./button";

/**
 * An action the caller's role allows but the present state forbids: shown disabled, with the server's reason
 * written beside it (a disabled button gets no hover, so a tooltip alone would never show).
 */
export function BlockedAction({
  reason,
  children,
  className,
}: {
  reason: string;
  children: React.ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <span className="inline-grid max-w-64 justify-items-start gap-1">
      <Button variant="outline" size="sm" disabled aria-describedby={id} className={className}>
        {children}
      </Button>
      <span id={id} className="text-xs text-muted-foreground">
        {reason}
      </span>
    </span>
  );
}
