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
 * Packages that load files relative to themselves (binaries, WebAssembly) or that
 * only the terminal UI uses stay external and load from node_modules as before.
 */
import { rm } from "node:fs/promises";
import { build } from "esbuild";

// Files of an earlier build (one .js per source file) must not linger beside the bundle.
await rm("dist", { recursive: true, force: true });

const external = [
  "@vscode/ripgrep",
  "web-tree-sitter",
  "tree-sitter-wasms",
  "ink",
  "react",
  "react/*",
  "@modelcontextprotocol/sdk",
  "@modelcontextprotocol/sdk/*",
  // Loaded only by the fleet's commands; CommonJS packages whose classes an ES bundle
  // would re-wrap (ioredis's `Redis` is then "not a constructor").
  "bullmq",
  "ioredis",
  // Finds its browser driver files relative to itself.
  "playwright-core",
  // Loaded only behind a proxy (#20); bundled, its CommonJS EnvHttpProxyAgent is "not a constructor".
  "undici",
];

const result = await build({
  entryPoints: { "cli/main": "src/cli/main.ts", index: "src/index.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "cli/chunk-[hash]",
  external,
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
