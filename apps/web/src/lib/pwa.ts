// Registers the service worker (src/sw/service-worker.ts) from the signed-in app only: a visitor of the public pages
// never loads this module, its script or the worker. Registering again is a no-op; the browser checks for a new
// worker on each navigation.
import { Workbox } from "workbox-window";

let registered: Promise<ServiceWorkerRegistration | undefined> | undefined;

/** How long after the page has loaded the worker is registered: its first install downloads the whole app. */
const AFTER_LOAD_MS = 2_000;

/**
 * Registers once per page, a moment after the page has loaded and when the browser is idle: the worker's first
 * install fetches every file of the app, which must not compete with the first screen's code and data (the page
 * someone lands on after signing in).
 */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (import.meta.env.DEV || !("serviceWorker" in navigator)) return Promise.resolve(undefined);
  registered ??= new Promise<void>((resolve) => {
    if (document.readyState === "complete") resolve();
    else window.addEventListener("load", () => resolve(), { once: true });
  })
    .then(() => new Promise((resolve) => setTimeout(resolve, AFTER_LOAD_MS)))
    .then(() => new Promise((resolve) => ("requestIdleCallback" in window ? requestIdleCallback(resolve) : resolve(0))))
    .then(() => new Workbox("/service-worker.js", { scope: "/" }).register())
    .catch(() => undefined);
  return registered;
}

/**
 * Sends this browser's push subscription, if it has one, to the server for the signed-in session. The server keeps a
 * subscription only while the session that sent it lasts (signing out, or being signed out, ends it), so a browser
 * signed in again — by the same person or another — hears again only once a signed-in page has sent it.
 */
export async function resendPushSubscription(): Promise<void> {
  const registration = await registerServiceWorker();
  if (!registration || !("PushManager" in window) || !("Notification" in window)) return;
  if (Notification.permission !== "granted") return;
  const subscription = await registration.pushManager.getSubscription().catch(() => null);
  if (!subscription) return;
  const { api } = await import("./api-client");
  await api("/push/subscriptions", { method: "POST", body: subscription.toJSON(), redirectOn401: false }).catch(
    () => undefined,
  );
}
