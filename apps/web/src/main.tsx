import "@fontsource-variable/inter";
import "./index.css";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { AppProvider } from "./app/provider";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
const app = (
  <StrictMode>
    <AppProvider />
  </StrictMode>
);
// Public pages arrive prerendered (src/prerender.tsx): React adopts their HTML instead of drawing it again.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
