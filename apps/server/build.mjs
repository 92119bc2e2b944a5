// Bundles the server's own code (and the domain package) into dist/; node_modules stay external. Split into chunks
// so that a dynamic import loads its modules (and the packages they import) only when it runs: main.ts starts
// tracing before the server's modules are imported.
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.ts", "src/cli.ts"],
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  splitting: true,
  target: "node20",
  sourcemap: true,
  packages: "external",
  alias: {},
  plugins: [
    {
      name: "bundle-workspace-domain",
      setup(b) {
        b.onResolve({ filter: /^@tranche\/domain/ }, async (args) => {
          const sub = args.path.replace("@tranche/domain", "") || "/index";
          const result = await b.resolve(`../../packages/domain/src${sub}.ts`, {
            kind: args.kind,
            resolveDir: process.cwd(),
          });
          return result;
        });
      },
    },
  ],
  logLevel: "warning",
});
