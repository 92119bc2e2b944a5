import type * as React from "react";

/**
 * A horizontally scrollable box (wide tables on phones). It is a labelled region that takes focus, so
 * keyboard users can scroll it too (axe: scrollable-region-focusable). It is positioned, so screen-reader-only
 * text inside (absolutely positioned) is clipped with the rest instead of widening the page.
 */
export function ScrollRegion({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
    <section aria-label={label} tabIndex={0} className={`relative overflow-x-auto ${className}`}>
      {children}
    </section>
  );
}
