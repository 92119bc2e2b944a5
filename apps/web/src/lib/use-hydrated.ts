import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in prerendered HTML and while React adopts it, true once the page is live. A prerendered form disables
 * its submit button until then: submitted before hydration, the browser would send it as a plain GET and put
 * the visitor's details in the address bar.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
