/**
 * Bundles the build (issue 18: start-up). `npm run build` runs this, then `tsc`,
 * which type-checks and writes the declaration files; esbuild writes the JavaScript: one file per entry point
 * and shared chunks, with every `await import()` kept as a chunk of its own, so
 * lazy parts stay lazy. Loading a few chunks instead of hundreds of module files
 * (the SDKs alone are hundreds) is most of what `cairn run` used to spend before
 * its first request.
 *
 * Chunks sit next to `dist/cli/main.js`: code that finds files relative to its
 * own module (`new URL("../../package.json", import.meta.url)`) keeps working.
 */
import { rm } from "node:fs/promises";
import { build } from "esbuild";

// Files of an earlier build (one .js per source file) must not linger beside the bundle.
await rm("dist", { recursive: true, force: true });

/**
 * The packages bundled with cairn's own code: those on the way to the first
 * request, where hundreds of module files cost most. They are plain JavaScript
 * (no files found relative to themselves). Every other package stays external
 * and loads from node_modules as it always did: a package that reads files next
 * to its own code (`__dirname`, WebAssembly, binaries, scripts) would break in a
 * bundle, and packages added later are safe by default.
 */
const bundled = new Set(["@anthropic-ai/sdk", "openai", "zod", "commander", "picocolors", "diff", "ignore", "tinyglobby", "gpt-tokenizer"]);

function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Bare imports from cairn's sources are bundled only for the packages above; their own imports follow them. */
const externalPackages = {
  name: "external-packages",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:")) return { external: true };
      const fromPackage = args.importer.includes("/node_modules/");
      if (fromPackage || bundled.has(packageName(args.path))) return undefined;
      return { external: true };
    });
  },
};

const result = await build({
  entryPoints: { "cli/main": "src/cli/main.ts", index: "src/index.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "cli/chunk-[hash]",
  plugins: [externalPackages],
  sourcemap: true,
  // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
  banner: { js: 'import { createRequire as __cairnCreateRequire } from "node:module"; const require = __cairnCreateRequire(import.meta.url);' },
  logLevel: "warning",
  metafile: process.env["CAIRN_BUNDLE_META"] !== undefined,
});
// `CAIRN_BUNDLE_META=file node scripts/bundle.js` writes what went into which chunk (for esbuild's analyzer).
if (result.metafile !== undefined) {
  const { writeFile } = await import("node:fs/promises");
  await writeFile(process.env["CAIRN_BUNDLE_META"], JSON.stringify(result.metafile));
}
