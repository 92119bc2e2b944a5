import { Toaster as Sonner, toast as sonnerToast } from "sonner";

export function Toaster() {
  return <Sonner position="top-right" richColors closeButton toastOptions={{ duration: 5000 }} />;
}

/** SPEC.md §8 toasts: a title and an optional text; destructive ones are errors. */
export const toast = {
  success: (title: string, description?: string) => sonnerToast.success(title, { description }),
  error: (title: string, description?: string) => sonnerToast.error(title, { description }),
};
