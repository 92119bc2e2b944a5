// The web app's service worker (built by vite-plugin-pwa's injectManifest from this file): it keeps the signed-in
// app's shell and code on the device, so the field view opens with no signal. The public pages are not cached and
// their navigations are never answered from here: they load from the network as they always have.

import { matchPagePattern } from "@tranche/domain/page-reads";
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { APP_PAGES } from "../app/app-pages";
import { handleNotificationClick, handlePush } from "./push";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

// The app shell (app.html) and the signed-in app's code, styles, font and icons; the build lists them.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// A new version takes over at once: every page of the app it controls asks the server for what it lacks.
self.skipWaiting();
clientsClaim();

/**
 * A navigation to one of the signed-in app's pages, from the list its router takes them from (app/app-pages.ts),
 * matched as the server matches the router's patterns (case aside); everything else is the public site, or an
 * address the server answers 404.
 */
const isAppPage = ({ request, url }: { request: Request; url: URL }) =>
  request.mode === "navigate" && matchPagePattern(APP_PAGES, url.pathname.toLowerCase()) !== undefined;

/** How long a navigation waits for the network before the app opens from the device (a site with a weak signal). */
const NETWORK_TIMEOUT_MS = 6000;

// A page of the app: from the server, which writes the session into it; with no connection (or too slow a one),
// the shell kept on the device, and the app then works from what it stored (the field view).
registerRoute(isAppPage, async ({ request }) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), NETWORK_TIMEOUT_MS);
  try {
    return await fetch(request, { signal: controller.signal });
  } catch {
    return (await matchPrecache("/app.html")) ?? Response.error();
  } finally {
    clearTimeout(timer);
  }
});

// Web Push: a priority notification when a push arrives; a click opens the assignment in the field view (./push.ts).
self.addEventListener("push", handlePush);
self.addEventListener("notificationclick", handleNotificationClick);
