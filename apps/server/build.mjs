// Bundles the server's own code (and the domain package) into dist/; node_modules stay external.
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.ts", "src/cli.ts"],
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
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
