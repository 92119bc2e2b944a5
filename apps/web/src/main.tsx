import "@fontsource-variable/inter";
import "./index.css";
import { type ReactNode, StrictMode, startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { AppProvider } from "./app/provider";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
/** Marks the document once React has adopted it (html[data-hydrated]): before then a prerendered page's controls
 * are inert, so browser tests wait for it before they click. */
function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return children;
}

const app = (
  <StrictMode>
    <Hydrated>
      <AppProvider />
    </Hydrated>
  </StrictMode>
);
// Public pages arrive prerendered (src/prerender.tsx): React adopts their HTML instead of drawing it again.
// As a transition, hydration yields to the browser every few milliseconds instead of holding the main thread
// in one long task (and hydrates first whatever the visitor touches); the page is on screen meanwhile.
if (root.firstElementChild) startTransition(() => void hydrateRoot(root, app));
else {
  // The empty shell: a signed-in page (or a 404). Its code and data are asked for now, all at once, and React
  // starts once the code is in, so no layout shows a loading fallback only to replace it.
  // Loaded only here, so the public pages' first script stays as small as it was.
  void import("./app/preload-route")
    .then(({ preloadRoute }) => preloadRoute(window.location))
    .catch(() => undefined)
    .then(() => createRoot(root).render(app));
}
