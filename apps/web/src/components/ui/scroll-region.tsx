import type * as React from "react";
import { useEffect, useRef, useState } from "react";

/**
 * A horizontally scrollable box (wide tables on phones). It is a labelled region that takes focus, so
 * keyboard users can scroll it too (axe: scrollable-region-focusable). It is positioned, so screen-reader-only
 * text inside (absolutely positioned) is clipped with the rest instead of widening the page. While columns are
 * hidden to the right, a fading edge and a line of text say that it scrolls.
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
  const ref = useRef<HTMLElement>(null);
  const [more, setMore] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setMore(el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
    update();
    el.addEventListener("scroll", update, { passive: true });
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(update);
    observer?.observe(el);
    return () => {
      el.removeEventListener("scroll", update);
      observer?.disconnect();
    };
  }, []);
  return (
    <div>
      <div className="relative">
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
        <section ref={ref} aria-label={label} tabIndex={0} className={`relative overflow-x-auto ${className}`}>
          {children}
        </section>
        {more ? (
          <div
            aria-hidden
            data-scroll-cue
            className="pointer-events-none absolute inset-y-0 right-0 w-10 rounded-r-lg bg-gradient-to-l from-slate-900/15 to-transparent"
          />
        ) : null}
      </div>
      {more ? <p className="mt-2 text-right text-xs text-slate-500">Scroll sideways to see every column →</p> : null}
    </div>
  );
}
