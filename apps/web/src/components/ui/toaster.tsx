import { useSyncExternalStore } from "react";
import { Toaster as Sonner, toast as sonnerToast } from "sonner";
import { useMediaQuery } from "@/lib/use-media-query";

// Sonner's own phone breakpoint: below it a toast spans the width of the screen.
const PHONE = "(max-width: 600px)";
// Every layout's header is 4rem tall (the field view's 3.5rem): a phone's toasts start just below it.
const BELOW_HEADER = 72;
// A modal dialog (Radix's Dialog and AlertDialog mark theirs with data-state; the phone menu, a plain drawer, does not).
const OPEN_DIALOG = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

/** Whether a modal dialog is open: Radix renders each in a portal, a child of <body>, only while it is open. */
function useDialogOpen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const observer = new MutationObserver(onChange);
      observer.observe(document.body, { childList: true });
      return () => observer.disconnect();
    },
    () => document.querySelector(OPEN_DIALOG) !== null,
    () => false,
  );
}

/**
 * Bottom right on wide screens. On phones at the top, just below the header: there they cover none of the header's
 * controls (bell, menu), nor the bottom of the phone menu (its Account and Log out), which a toast at the foot of
 * the screen would hide just after signing in. But while a dialog is open, a phone's toasts show at the bottom: at
 * the top they would cover the dialog's title and first fields, where a refused form puts the keyboard. At most
 * three at once.
 */
export function Toaster() {
  const phone = useMediaQuery(PHONE);
  const dialogOpen = useDialogOpen();
  return (
    <Sonner
      position={!phone ? "bottom-right" : dialogOpen ? "bottom-center" : "top-center"}
      mobileOffset={{ top: BELOW_HEADER, bottom: 16, left: 16, right: 16 }}
      visibleToasts={3}
      richColors
      closeButton
      toastOptions={{ duration: 5000 }}
    />
  );
}

// The same toast again (five failed sign-ins) replaces the one on screen instead of stacking a copy.
const idOf = (kind: string, title: string, description?: string) => `${kind}\u0000${title}\u0000${description ?? ""}`;

/** Toasts: a title and an optional text; destructive ones are errors (docs/domain.md "Forms and messages"). */
export const toast = {
  success: (title: string, description?: string) =>
    sonnerToast.success(title, { description, id: idOf("success", title, description) }),
  error: (title: string, description?: string) =>
    sonnerToast.error(title, { description, id: idOf("error", title, description) }),
};
