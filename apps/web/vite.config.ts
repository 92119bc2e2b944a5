import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";

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

/**
 * `.vite/page-chunks.json`: for each signed-in page's path (router.tsx's `appPage("/path", () => import(…))`), every
 * chunk its first load needs beyond the entry's own (route preloading, the query scope, its shell, the page, what
 * its `also` starts, and what they import). The server names them in the shell as modulepreload links (apps/server/src/web-app.ts), so the
 * browser fetches them while the entry script is still loading instead of after it has run.
 */
/** The modules each of router.tsx's `also:` preloads loads, which the page's first load needs too. */
const ALSO: Record<string, string[]> = {
  preloadCharts: [
    "src/features/analytics/components/lazy-charts.tsx",
    "src/features/analytics/components/analytics-charts.tsx",
  ],
};

function pageChunks(): Plugin {
  const routerFile = fileURLToPath(new URL("./src/app/router.tsx", import.meta.url));
  return {
    name: "tranche:page-chunks",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === "chunk");
      const byModule = (suffix: string) => {
        const holds = (id: string | null | undefined) => id?.replaceAll("\\", "/").endsWith(suffix);
        const chunk = chunks.find((c) => holds(c.facadeModuleId)) ?? chunks.find((c) => c.moduleIds.some(holds));
        if (!chunk) this.error(`page-chunks: no chunk for ${suffix}`);
        return chunk;
      };
      // The browser build's (index.html); the prerender's server build has nothing to preload.
      const entry = chunks.find((c) => c.isEntry && c.facadeModuleId?.endsWith("index.html"));
      if (!entry) return;
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const withImports = (roots: string[], seen = new Set<string>()) => {
        for (const file of roots) {
          if (seen.has(file)) continue;
          seen.add(file);
          withImports(byFile.get(file)?.imports ?? [], seen);
        }
        return seen;
      };
      const inEntry = withImports([entry.fileName]);
      const source = readFileSync(routerFile, "utf8");
      const pages = [...source.matchAll(/appPage\(\s*"([^"]+)",\s*\(\) => import\("\.\/routes\/([\w-]+)"\)/g)];
      if (pages.length === 0 || pages.length !== source.match(/appPage\(\s*"/g)?.length) {
        this.error(
          'page-chunks: every appPage in router.tsx must read appPage("/path", () => import("./routes/name"), …)',
        );
      }
      const common = ["src/app/preload-route.ts", "src/app/query-scope.tsx"].map((m) => byModule(m).fileName);
      const result = pages.map(({ 1: path, 2: name, index = 0 }, i) => {
        const shell = byModule(`src/app/routes/${path.startsWith("/field") ? "field-shell" : "app-shell"}.tsx`);
        const page = byModule(`src/app/routes/${name}.tsx`);
        // What the page's `also` starts with it (the charts), from its appPage(…) call up to the next one.
        const options = source.slice(index, pages[i + 1]?.index ?? source.length);
        const also = Object.entries(ALSO).flatMap(([call, modules]) =>
          options.includes(`also: ${call}`) ? modules.map((m) => byModule(m).fileName) : [],
        );
        const roots = [...common, shell.fileName, page.fileName, ...also];
        const files = [...withImports(roots)].filter((f) => !inEntry.has(f));
        return { path, files };
      });
      this.emitFile({ type: "asset", fileName: ".vite/page-chunks.json", source: JSON.stringify(result) });
    },
  };
}

/** Chunks only the public site loads (its pages and their parts): named apart, so the service worker skips them. */
const PUBLIC_SOURCES = /[\\/]src[\\/](?:app[\\/]routes[\\/]public|features[\\/]marketing)[\\/]/;

/**
 * The installable app (docs/decisions/021-offline-field-app.md): the manifest, and the service worker built from our
 * own src/sw/service-worker.ts with the list of files to keep on the device. Registered by the signed-in app only
 * (lib/pwa.ts): the public pages neither link the manifest (scripts/prerender.mjs) nor load the registration.
 */
const pwa = VitePWA({
  strategies: "injectManifest",
  srcDir: "src/sw",
  filename: "service-worker.ts",
  injectRegister: false,
  manifest: {
    name: "Tranche",
    short_name: "Tranche",
    description: "Milestone-verified capital release: verify on site, even with no signal.",
    id: "/",
    start_url: "/dashboard",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#0f1f3d",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
    shortcuts: [{ name: "Field assignments", short_name: "Field", url: "/field" }],
  },
  injectManifest: {
    // The app shell (written as app.html by scripts/prerender.mjs from this build's index.html), the signed-in app's
    // code and styles, the Latin font and the icons; not the public pages' chunks, nor the other scripts' fonts.
    globPatterns: [
      "index.html",
      "assets/*.{js,css}",
      "assets/inter-latin-wght-normal-*.woff2",
      "icons/*.png",
      "favicon.svg",
    ],
    globIgnores: ["assets/public-*", "assets/boot-*"],
    manifestTransforms: [
      async (entries) => ({
        manifest: entries.map((entry) => (entry.url === "index.html" ? { ...entry, url: "app.html" } : entry)),
        warnings: [],
      }),
    ],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
  },
});

export default defineConfig({
  plugins: [react(), tailwindcss(), preloadLatinFont(), pageChunks(), pwa],
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
        chunkFileNames: (chunk) =>
          chunk.moduleIds.length > 0 && chunk.moduleIds.every((id) => PUBLIC_SOURCES.test(id))
            ? "assets/public-[name]-[hash].js"
            : "assets/[name]-[hash].js",
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
