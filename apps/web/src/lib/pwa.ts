// Registers the service worker (src/sw/service-worker.ts) from the signed-in app only: a visitor of the public pages
// never loads this module, its script or the worker. Registering again is a no-op; the browser checks for a new
// worker on each navigation.
import { Workbox } from "workbox-window";

let registered: Promise<ServiceWorkerRegistration | undefined> | undefined;

/** Registers once per page, after the page has loaded (the worker's downloads never compete with the page's). */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (import.meta.env.DEV || !("serviceWorker" in navigator)) return Promise.resolve(undefined);
  registered ??= new Promise<void>((resolve) => {
    if (document.readyState === "complete") resolve();
    else window.addEventListener("load", () => resolve(), { once: true });
  })
    .then(() => new Workbox("/service-worker.js", { scope: "/" }).register())
    .catch(() => undefined);
  return registered;
}
