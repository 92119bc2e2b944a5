import { createContext, lazy, type ReactNode, Suspense, useCallback, useContext, useEffect, useState } from "react";

// Toasts come only from screens that talk to the server, and each of those sits in a QueryScope: the toaster
// (sonner) loads when the first of them mounts, so static marketing pages never download it. It then stays
// mounted at the root, so a toast raised just before a navigation (sign-in, sign-out) survives it.
const Toaster = lazy(() => import("@/components/ui/toaster").then((m) => ({ default: m.Toaster })));

const EnableToasts = createContext<() => void>(() => {});

/** Renders no toaster until a screen asks for one, so prerendered pages hydrate without it. */
export function ToasterSlot({ children }: { children: ReactNode }) {
  const [enabled, setEnabled] = useState(false);
  const enable = useCallback(() => setEnabled(true), []);
  return (
    <EnableToasts.Provider value={enable}>
      {children}
      {enabled ? (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      ) : null}
    </EnableToasts.Provider>
  );
}

/** Called by every screen that may raise a toast. */
export function useToasts() {
  const enable = useContext(EnableToasts);
  useEffect(enable, [enable]);
}
