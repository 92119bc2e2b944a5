import { useRef } from "react";

type AutoFocusHandler = (event: Event) => void;

/**
 * Focus goes back to what opened a dialog when it closes. Radix returns it only to a dialog's own Trigger; most of
 * ours are opened by a plain button and mounted while open, and without this focus fell to the page's start, so a
 * keyboard user had to tab through the whole page again. The opener is what had focus as the dialog opened; if it
 * is gone by then (the row it sat in was deleted), Radix's own handling stays.
 */
export function useReturnFocus(props: { onOpenAutoFocus?: AutoFocusHandler; onCloseAutoFocus?: AutoFocusHandler }) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      // Fired before focus moves into the dialog: the active element is still the opener.
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      props.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      props.onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      const target = opener.current;
      opener.current = null;
      if (target?.isConnected && target !== document.body) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
