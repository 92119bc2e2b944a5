// "Enable push on this device": the browser's push subscription (made with the server's VAPID public key) and the
// server's record of it. The service worker that receives the messages is the app's own (src/sw/push.ts).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client";

export const pushKey = ["push", "this-device"] as const;

export type PushState =
  /** The browser cannot receive push here (no service worker or Push API, e.g. not installed or not https). */
  | { kind: "unsupported" }
  /** The person blocked notifications for this site in the browser. */
  | { kind: "blocked" }
  | { kind: "off" }
  | { kind: "on" };

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return undefined;
  return navigator.serviceWorker.getRegistration();
}

async function pushState(): Promise<PushState> {
  const worker = await registration();
  if (!worker) return { kind: "unsupported" };
  if (Notification.permission === "denied") return { kind: "blocked" };
  const subscription = await worker.pushManager.getSubscription();
  if (!subscription) return { kind: "off" };
  // Keep the server's record in step with the browser (it may have been dropped after a push service said 410).
  await api("/push/subscriptions", { method: "POST", body: subscription.toJSON() });
  return { kind: "on" };
}

export function usePushState() {
  return useQuery({ queryKey: pushKey, queryFn: pushState });
}

function usePushMutation(mutationFn: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: pushKey }) });
}

export const useEnablePush = () =>
  usePushMutation(async () => {
    const worker = await registration();
    if (!worker) throw new Error("This browser cannot receive push notifications from Tranche here.");
    if ((await Notification.requestPermission()) !== "granted") {
      throw new Error("Notifications are blocked for Tranche in this browser's settings.");
    }
    const { publicKey } = await api<{ publicKey: string }>("/push/vapid-public-key");
    const subscription =
      (await worker.pushManager.getSubscription()) ??
      (await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
    await api("/push/subscriptions", { method: "POST", body: subscription.toJSON() });
  });

export const useDisablePush = () =>
  usePushMutation(async () => {
    const subscription = await (await registration())?.pushManager.getSubscription();
    if (!subscription) return;
    await api("/push/subscriptions", { method: "DELETE", body: { endpoint: subscription.endpoint } });
    await subscription.unsubscribe();
  });
