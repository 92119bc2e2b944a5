import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import type { ChunkingContext } from "rolldown";
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
const PAGE_MODULES = /[\\/]src[\\/](?:app[\\/]routes|sw)[\\/]/;

const PUBLIC_PAGE = /[\\/]src[\\/]app[\\/]routes[\\/]public[\\/][\w-]+\.tsx$/;
const LANDING_PAGE = /[\\/]src[\\/]app[\\/]routes[\\/]public[\\/]home\.tsx$/;
const SERVER_STATE = /[\\/]node_modules[\\/]@tanstack[\\/]react-query[\\/]/;
const ICON_INDEX = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/;

/**
 * Two chunks for the code that several pages share, instead of a chunk per module: a first visit to a signed-in
 * page fetched about 55 files, and a browser asks a server for six at a time over HTTP/1.1, so the page's own
 * data queued behind them.
 * - "app": what two or more pages share that no public page without server state reaches (components, hooks,
 *   API modules and the libraries under them). The public pages with a form or a lookup load it with TanStack
 *   Query, after their prerendered content has painted.
 * - "shared": what the app shares with the public pages that load no server state (icons, tabs), except what the
 *   landing page or the entry reach: those keep their own small chunks, as the landing page's budget is 90 kB.
 * Neither pulls in its modules' dependencies: a module reached from a page is reached with everything it imports,
 * so "shared" and the landing page's chunks never import "app", and no two chunks import each other in a circle.
 * React and TanStack have their own long-cached chunks; each page stays its own chunk.
 */
function sharedChunks() {
  let sets: { landing: Set<string>; light: Set<string> } | undefined;
  /**
   * Every module `roots` reach through static imports (and dynamic ones too, with `dynamic`). Not through an icon
   * library's index: the graph lists all of its icons as imported, tree-shaking keeps the ones named, so a module
   * reaches the icons it names.
   */
  const closure = (roots: string[], ctx: ChunkingContext, { dynamic = false } = {}) => {
    const seen = new Set<string>();
    const stack = [...roots];
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      const info = ctx.getModuleInfo(id);
      if (!info || ICON_INDEX.test(id)) continue;
      stack.push(...info.importedIds, ...(dynamic ? info.dynamicallyImportedIds : []));
      const index = info.importedIds.find((dep) => ICON_INDEX.test(dep));
      if (index) stack.push(...iconsNamed(info.code ?? "", index, ctx));
    }
    return seen;
  };
  const iconFiles = new Map<string, Map<string, string>>();
  /** The icon modules `code` imports by name from the icon index `index` (its re-exports, read once). */
  const iconsNamed = (code: string, index: string, ctx: ChunkingContext): string[] => {
    let files = iconFiles.get(index);
    if (!files) {
      files = new Map();
      for (const [, names, file] of (ctx.getModuleInfo(index)?.code ?? "").matchAll(
        /export \{([^}]*)\} from '([^']+)'/g,
      ))
        for (const [, name] of names.matchAll(/default as (\w+)/g))
          files.set(name, path.resolve(path.dirname(index), file));
      iconFiles.set(index, files);
    }
    const named = [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["']/g)].flatMap(([, list]) =>
      list.split(",").map((name) => name.trim().split(/\s+as\s+/)[0]),
    );
    return named.flatMap((name) => files.get(name) ?? []);
  };
  /** Worked out once per build, from the entry (index.html's script) down through every import. */
  const reach = (anyModule: string, ctx: ChunkingContext) => {
    let entry = anyModule;
    for (const seen = new Set<string>(); !seen.has(entry); ) {
      seen.add(entry);
      const info = ctx.getModuleInfo(entry);
      const up = info?.importers[0] ?? info?.dynamicImporters[0];
      if (!up) break;
      entry = up;
    }
    const pages = [...closure([entry], ctx, { dynamic: true })].filter((id) => PUBLIC_PAGE.test(id));
    const withoutServerState = pages.filter((page) => ![...closure([page], ctx)].some((id) => SERVER_STATE.test(id)));
    return {
      landing: closure([entry, ...pages.filter((page) => LANDING_PAGE.test(page))], ctx),
      light: closure([entry, ...withoutServerState], ctx),
    };
  };
  return (id: string, ctx: ChunkingContext): string | null => {
    if (PUBLIC_SOURCES.test(id) || PAGE_MODULES.test(id)) return null;
    sets ??= reach(id, ctx);
    if (!sets.light.has(id)) return "app";
    return sets.landing.has(id) ? null : "shared";
  };
}

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

export default defineConfig(({ isSsrBuild }) => ({
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
            // Not for the prerender's Node build: it loads only the public pages, and would evaluate the whole
            // app chunk (the field queue's BroadcastChannel then keeps Node from exiting).
            ...(isSsrBuild
              ? []
              : [
                  {
                    name: sharedChunks(),
                    debugName: "app and shared",
                    minShareCount: 2,
                    priority: 5,
                    includeDependenciesRecursively: false,
                  },
                ]),
          ],
        },
      },
    },
  },
}));
