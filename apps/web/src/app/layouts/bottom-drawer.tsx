import { MenuIcon, XIcon } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useLocation } from "react-router";

// Plain class strings, no radix: the public layout that uses this is part of the landing page's first load.

/**
 * The small-screen bottom drawer of both layouts (docs/domain.md "Routes and navigation"). It closes on a new
 * route, Escape or the backdrop; focus stays inside while it is open and returns to the opener after; the page
 * does not scroll.
 */
export function BottomDrawer({ title, children }: { title: ReactNode; children: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close whenever the route changes
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKey = (event: KeyboardEvent) => {
      // An Escape a field inside already used (closing its own suggestions) leaves the drawer open.
      if (event.key === "Escape" && !event.defaultPrevented) setOpen(false);
      if (event.key !== "Tab" || !panel.current) return;
      const items = [...panel.current.querySelectorAll<HTMLElement>("a, button, input")];
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = "";
      (previous ?? opener.current)?.focus();
    };
  }, [open]);
  const close = () => setOpen(false);
  return (
    <div className="lg:hidden">
      <button
        ref={opener}
        type="button"
        className="inline-flex size-11 cursor-pointer items-center justify-center rounded-md text-slate-800 hover:bg-slate-100"
        aria-label="Open menu"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <MenuIcon className="size-6" aria-hidden />
      </button>
      {/* In a portal: a sticky or blurred header would otherwise be the containing block of this fixed overlay. */}
      {open
        ? createPortal(
            <div className="fixed inset-0 z-50">
              <div className="absolute inset-0 bg-slate-950/50" aria-hidden onClick={close} />
              <div
                ref={panel}
                role="dialog"
                aria-modal="true"
                aria-label="Menu"
                className="absolute inset-x-0 bottom-0 max-h-[85vh] overflow-y-auto rounded-t-2xl bg-white p-4 pb-8 shadow-2xl"
              >
                <div className="mx-auto mb-3 h-1.5 w-12 rounded-full bg-slate-200" aria-hidden />
                <div className="mb-2 flex items-center justify-between px-3">
                  {title}
                  <button
                    type="button"
                    className="inline-flex size-11 cursor-pointer items-center justify-center rounded-md hover:bg-slate-100"
                    aria-label="Close menu"
                    onClick={close}
                  >
                    <XIcon className="size-5" aria-hidden />
                  </button>
                </div>
                {children(close)}
              </div>
            </div>,
            document.body,
          )
        : null}
    </div>
  );
}
