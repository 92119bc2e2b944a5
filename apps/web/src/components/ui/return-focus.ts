import { useRef } from "react";

type AutoFocusHandler = (event: Event) => void;

const IN_DIALOG = '[role="dialog"], [role="alertdialog"]';

/**
 * What had focus just before focus first entered each open dialog. A field that focuses itself as its dialog mounts
 * (`autoFocus`) takes focus before Radix would fire the open event, which it then never fires: this still knows the
 * opener.
 */
const enteredFrom = new WeakMap<Element, HTMLElement>();
let focused: HTMLElement | null = null;
if (typeof document !== "undefined") {
  document.addEventListener(
    "focusin",
    (event) => {
      if (!(event.target instanceof HTMLElement)) return;
      const dialog = event.target.closest(IN_DIALOG);
      if (dialog && focused && !dialog.contains(focused) && !enteredFrom.has(dialog)) enteredFrom.set(dialog, focused);
      focused = event.target;
    },
    true,
  );
}

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
      const target = opener.current ?? (event.target instanceof Element ? enteredFrom.get(event.target) : undefined);
      opener.current = null;
      if (target?.isConnected && target !== document.body) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
