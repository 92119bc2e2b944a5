import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** Preloads the Latin Inter font, so text is drawn in it from the first render (no swap, no shift). */
function preloadLatinFont(): Plugin {
  return {
    name: "tranche:preload-latin-font",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((file) => /inter-latin-wght-normal-[\w-]+\.woff2$/.test(file));
        if (!font) return [];
        return [
          {
            tag: "link",
            attrs: { rel: "preload", as: "font", type: "font/woff2", href: `/${font}`, crossorigin: "" },
            injectTo: "head",
          },
        ];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), preloadLatinFont()],
  // The same "@/…" paths as tsconfig.json, for the dev server's dependency scan as well as the build.
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  server: {
    port: 5173,
    // changeOrigin stays false: the API sees Host localhost:5173, the origin the browser's Origin header names,
    // so its same-origin check on state-changing requests (auth/middleware.ts) accepts the dev server's pages.
    proxy: { "/api": { target: process.env.API_URL ?? "http://localhost:3000", changeOrigin: false } },
  },
  build: {
    target: "es2022",
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // Every browser this app supports has modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React and the router change rarely and every page needs them: one long-cached chunk.
            {
              name: "react",
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 20,
            },
            // Server state: loaded with the first screen that talks to the server, never by the landing page.
            { name: "query", test: /[\\/]node_modules[\\/]@tanstack[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
});
