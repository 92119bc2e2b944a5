import { Toaster as Sonner, toast as sonnerToast } from "sonner";

/**
 * Bottom right on wide screens and bottom on phones, where toasts cover none of the header's controls (search,
 * bell, menu); at most three at once.
 */
export function Toaster() {
  return <Sonner position="bottom-right" visibleToasts={3} richColors closeButton toastOptions={{ duration: 5000 }} />;
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
