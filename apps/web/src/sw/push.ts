// The push half of the app's service worker: shows a priority notification when a push arrives, and opens the
// assignment in the field view when it is clicked. The service worker imports these and wires them up:
//   self.addEventListener("push", handlePush);
//   self.addEventListener("notificationclick", handleNotificationClick);
// The payload is what the server's push sender writes (PushPayload in @tranche/domain).
import type { PushPayload } from "@tranche/domain";

// The few service worker shapes used here, typed locally: the web app compiles against the DOM library, whose
// `self` is a Window, and the WebWorker library cannot be mixed into it.
interface ExtendableEventLike {
  waitUntil(promise: Promise<unknown>): void;
}
export interface PushEventLike extends ExtendableEventLike {
  data: { json(): unknown; text(): string } | null;
}
export interface NotificationClickEventLike extends ExtendableEventLike {
  notification: { data: unknown; close(): void };
}
interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface ServiceWorkerScopeLike {
  location: { origin: string };
  registration: {
    showNotification(title: string, options: NotificationOptions & { renotify?: boolean }): Promise<void>;
  };
  clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
}

const scope = () => self as unknown as ServiceWorkerScopeLike;

const FALLBACK: PushPayload = {
  title: "Tranche",
  body: "You have new work in Tranche.",
  url: "/field",
  tag: "tranche",
  urgency: "normal",
  notificationId: "",
  milestoneId: null,
};

/** The message, read defensively: a push that is not ours (or not JSON) still shows something useful. */
export function readPayload(data: PushEventLike["data"]): PushPayload {
  if (!data) return FALLBACK;
  try {
    const value = data.json() as Partial<PushPayload>;
    if (typeof value.title !== "string" || typeof value.body !== "string") return FALLBACK;
    return { ...FALLBACK, ...value, url: sameOriginPath(value.url) };
  } catch {
    return { ...FALLBACK, body: data.text() || FALLBACK.body };
  }
}

/**
 * Only a path on this site is opened: a push can never send the person elsewhere. The path is read as the browser
 * will read it, against a stand-in origin, so "//elsewhere" and "/\\elsewhere" (a backslash is a slash in a URL)
 * are refused as another host.
 */
function sameOriginPath(url: unknown): string {
  if (typeof url !== "string" || !url.startsWith("/")) return FALLBACK.url;
  const here = "https://tranche.invalid";
  const parsed = new URL(url, here);
  return parsed.origin === here ? `${parsed.pathname}${parsed.search}${parsed.hash}` : FALLBACK.url;
}

export function handlePush(event: PushEventLike): void {
  const payload = readPayload(event.data);
  event.waitUntil(
    scope().registration.showNotification(payload.title, {
      body: payload.body,
      tag: payload.tag,
      // A newer push about the same milestone replaces the older one, and still alerts.
      renotify: true,
      // Overdue work stays on screen until it is dealt with.
      requireInteraction: payload.urgency === "high",
      icon: "/icons/icon-192.png",
      data: { url: payload.url, notificationId: payload.notificationId },
    }),
  );
}

export function handleNotificationClick(event: NotificationClickEventLike): void {
  event.notification.close();
  const url = sameOriginPath((event.notification.data as { url?: unknown } | null)?.url);
  event.waitUntil(openOrFocus(url));
}

/** Reuses an open Tranche window (navigated to the assignment) rather than opening another. */
async function openOrFocus(path: string): Promise<unknown> {
  const sw = scope();
  const target = new URL(path, sw.location.origin).href;
  const windows = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === sw.location.origin);
  if (open) {
    await open.navigate(target);
    return open.focus();
  }
  return sw.clients.openWindow(target);
}
