/**
 * Bundles the build (issue 18: start-up). `npm run build` runs this, then `tsc`,
 * which type-checks and writes the declaration files; esbuild writes the JavaScript:
 * - `dist/cli/main.cjs`: the whole CLI as one CommonJS file. `bin/cairn` loads it
 *   through `dist/launch.cjs` (src/launch/), which keeps V8's compiled code
 *   between runs; Node 20 has no such cache for ES modules, and compiling was
 *   most of a start. Lazy `import()`s of cairn's own files become functions
 *   that run on first use; those of external packages stay `import()`.
 * - `dist/cli/telemetry.cjs` (and any other of `chunks` below): a part of the CLI
 *   that only some runs need, with the packages it uses (OpenTelemetry), as a
 *   CommonJS bundle of its own. The CLI bundle's `import()` of its source file
 *   loads it through the launcher, with a code cache of its own, on first use.
 * - `dist/cli/markdown-worker.cjs`: the terminal UI's worker thread that formats
 *   the printed history's markdown (src/ui/tui/markdown-formatter.ts).
 * - `dist/launch.cjs`: that loader, CommonJS as bin/cairn is: Node starts no ES
 *   module loader on the way to the bundle.
 * - `dist/index.js`: the library entry (`exports` in package.json), an ES module.
 *
 * Files sit where the sources' relative paths expect them: code that finds
 * files relative to its own module (`new URL("../../package.json", import.meta.url)`)
 * keeps working; in the CommonJS bundle `import.meta.url` is the bundle's URL.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { resolve } from "node:path";
import { build } from "esbuild";

// Files of an earlier build must not linger beside the new one.
await rm("dist", { recursive: true, force: true });

/**
 * The packages bundled with cairn's own code: those on the way to the first
 * request, where hundreds of module files cost most. They are plain JavaScript
 * (no files found relative to themselves). Every other package stays external
 * and loads from node_modules as it always did: a package that reads files next
 * to its own code (`__dirname`, WebAssembly, binaries, scripts) would break in a
 * bundle, and packages added later are safe by default. gpt-tokenizer (1.7 MB of
 * tables, loaded only when a count is needed) is imported where it is used.
 */
const bundled = new Set(["@anthropic-ai/sdk", "openai", "zod", "commander", "picocolors", "diff", "ignore", "tinyglobby", "ink", "react", "yoga-layout", "get-east-asian-width"]);

/**
 * ES-module-only packages with top-level await, which CommonJS cannot require():
 * yoga-layout (Ink's layout engine) awaits its WebAssembly. The CLI bundle's
 * imports of it read a registry that the code loading its importers fills first
 * (src/cli/load-interactive.ts); only its default export is used.
 */
const esmOnly = new Set(["yoga-layout"]);
const esmOnlyRegistryKey = "cairn.esm-only";

/**
 * Parts of the CLI built as bundles of their own (dist/cli/NAME.cjs), with every package
 * they import inside: the OpenTelemetry SDK cost 220-250 ms of CPU at each traced start when
 * it loaded from node_modules, compiled from source each time (bench/RESULTS.md, issue #36).
 * The CLI bundle may only `import()` their source file; that import loads the chunk through
 * the registry src/launch/launch.ts fills (`cairn.chunks`), with the code cache.
 */
const chunks = { telemetry: "src/telemetry/task-telemetry.ts" };
const chunkRegistryKey = "cairn.chunks";
const chunkOf = (path) => Object.entries(chunks).find(([, source]) => resolve(source) === path)?.[0];

/**
 * Changes to packages' code in the bundle, each checked: a new version of the package
 * without the text fails the build, to be looked at again.
 * - Ink connects React's devtools when DEV=true, through top-level awaits that CommonJS
 *   cannot hold: in the bundle the devtools import fails as a missing package does (Ink
 *   then says so).
 * - slice-ansi and @alcalzone/ansi-tokenize (which Ink runs on every line it draws) cut
 *   text into graphemes with an `Intl.Segmenter`; its first use loads ICU's break rules,
 *   about 40 ms of every start of the terminal UI. They get graphemeSegments() from
 *   src/ui/tui/unicode-fast-path.ts instead, which goes to ICU only for text that needs it.
 */
const importGraphemeSegments = `import { graphemeSegments } from ${JSON.stringify(resolve("src/ui/tui/unicode-fast-path.ts"))};`;
const sourcePatches = [
  {
    file: /[\\/]node_modules[\\/]ink[\\/]build[\\/]reconciler\.js$/,
    replacements: [
      ["await import('./devtools.js');", 'throw Object.assign(new Error("not bundled"), { code: "ERR_MODULE_NOT_FOUND" });'],
      ["? await loadPackageJson()", "? { name: undefined, version: undefined }"],
    ],
  },
  {
    file: /[\\/]node_modules[\\/]slice-ansi[\\/]tokenize-ansi\.js$/,
    replacements: [["const GRAPHEME_SEGMENTER = new Intl.Segmenter(undefined, {granularity: 'grapheme'});", `${importGraphemeSegments} const GRAPHEME_SEGMENTER = { segment: graphemeSegments };`]],
  },
  {
    file: /[\\/]node_modules[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
    replacements: [['const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });', `${importGraphemeSegments} const segmenter = { segment: graphemeSegments };`]],
  },
];

/**
 * Every `string-width` the bundled packages import (Ink's, wrap-ansi's) gets the fast
 * path of src/ui/tui/unicode-fast-path.ts in front; the package itself is
 * required the first time a string needs it.
 */
const fastStringWidth = "fast-string-width";

function packageName(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Bare imports from cairn's sources are bundled only for the packages above; their own imports follow them. */
const externalPackages = (format) => ({
  name: "external-packages",
  setup(builder) {
    if (format === "cjs") {
      builder.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === "chunk-source") return undefined;
        const real = await builder.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "chunk-source" });
        const chunk = real.errors.length === 0 ? chunkOf(real.path) : undefined;
        if (chunk === undefined) return undefined;
        if (args.kind !== "dynamic-import") return { errors: [{ text: `${args.path} is the ${chunk} chunk (scripts/bundle.js): import it with import(), where it is needed` }] };
        return { path: chunk, namespace: "chunk" };
      });
      builder.onLoad({ filter: /.*/, namespace: "chunk" }, (args) => ({
        loader: "js",
        contents:
          `const chunks = globalThis[Symbol.for(${JSON.stringify(chunkRegistryKey)})];\n` +
          `if (chunks === undefined) throw new Error(${JSON.stringify(`cairn: the ${args.path} chunk is loaded by dist/launch.cjs (bin/cairn)`)});\n` +
          `module.exports = chunks.load(${JSON.stringify(args.path)});\n`,
      }));
    }
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("node:")) return { external: true };
      if (format === "cjs" && args.path === "string-width" && args.pluginData !== fastStringWidth) {
        const real = await builder.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: fastStringWidth });
        if (real.errors.length > 0) return { errors: real.errors };
        return { path: real.path, namespace: fastStringWidth };
      }
      const fromPackage = args.importer.includes("/node_modules/");
      if (format === "cjs" && esmOnly.has(args.path) && args.kind === "import-statement") {
        return { path: args.path, namespace: "esm-only" };
      }
      if (fromPackage || bundled.has(packageName(args.path))) return undefined;
      // The library (an ES module) would hoist a static import of a package to its top and load it with
      // `import "cairn"` (@google/genai and the MCP SDK: 0.6 s of CPU). As in the CLI's bundle, it is
      // required when the code that imports it first runs (bench/RESULTS.md, "sdk").
      if (format === "esm" && args.kind === "import-statement" && !esmOnly.has(args.path) && !builtinModules.includes(args.path)) {
        return { path: args.path, namespace: "required-when-used" };
      }
      return { external: true };
    });
    builder.onLoad({ filter: /.*/, namespace: fastStringWidth }, (args) => ({
      loader: "js",
      resolveDir: process.cwd(),
      contents: `import { withFastPath } from "./src/ui/tui/unicode-fast-path.ts";\nexport default withFastPath(() => require(${JSON.stringify(args.path)}).default);\n`,
    }));
    builder.onLoad({ filter: /.*/, namespace: "required-when-used" }, (args) => ({ loader: "js", contents: `module.exports = require(${JSON.stringify(args.path)});\n` }));
    builder.onLoad({ filter: /.*/, namespace: "esm-only" }, (args) => ({
      loader: "js",
      contents:
        `const loaded = globalThis[Symbol.for(${JSON.stringify(esmOnlyRegistryKey)})]?.[${JSON.stringify(args.path)}];\n` +
        `if (loaded === undefined) throw new Error(${JSON.stringify(`cairn: ${args.path} was used before it was loaded (see src/cli/load-interactive.ts)`)});\n` +
        "export default loaded.default;\n",
    }));
    for (const patch of sourcePatches) {
      builder.onLoad({ filter: patch.file }, async (args) => {
        let source = await readFile(args.path, "utf8");
        for (const [before, after] of patch.replacements) {
          if (!source.includes(before)) throw new Error(`${args.path} changed (no "${before}"): look at scripts/bundle.js's sourcePatches again`);
          source = source.replace(before, after);
        }
        return { loader: "js", contents: source };
      });
    }
  },
});

/**
 * A chunk's `import("http")` of Node's own modules is a require(): an import() would start Node's ES
 * module loader, which a CommonJS bundle run from a vm.Script otherwise never needs (about 10-20 ms).
 */
const builtinsRequired = {
  name: "builtins-required",
  setup(builder) {
    builder.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => (args.kind === "dynamic-import" && builtinModules.includes(args.path.replace(/^node:/, "")) ? { path: args.path, namespace: "builtin-required" } : undefined));
    builder.onLoad({ filter: /.*/, namespace: "builtin-required" }, (args) => ({ loader: "js", contents: `module.exports = require(${JSON.stringify(args.path)});\n` }));
  },
};

const common = { bundle: true, platform: "node", target: "node20", sourcemap: true, logLevel: "warning", metafile: true, minifyWhitespace: true, minifySyntax: true, legalComments: "external" };
// `import.meta.url` in CommonJS output: the bundle file's own URL.
const importMetaUrlBanner = { js: 'var __cairnImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' };
// CommonJS packages inside an ES module still call require() for Node's own modules.
const esmRequire = { js: 'import { createRequire as __cairnCreateRequire } from "node:module"; const require = __cairnCreateRequire(import.meta.url);' };

const results = await Promise.all([
  build({
    ...common,
    entryPoints: { "cli/main": "src/cli/main.ts" },
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    plugins: [externalPackages("cjs")],
    define: { "import.meta.url": "__cairnImportMetaUrl", "process.env.NODE_ENV": '"production"' },
    // Its import()s of packages are renamed below: no loader runs for them in a vm.Script.
    banner: importMetaUrlBanner,
  }),
  // bin/cairn is CommonJS too (bin/package.json): no ES module loader starts before the bundle runs.
  build({
    ...common,
    entryPoints: { launch: "src/launch/launch.ts" },
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    plugins: [externalPackages("cjs")],
    define: { "import.meta.url": "__cairnImportMetaUrl" },
    banner: importMetaUrlBanner,
  }),
  // Each chunk holds its packages: nothing in it is looked up in node_modules when it loads.
  // Packages' ES module builds where they have one (`module`): what the chunk does not use is left out of it.
  build({
    ...common,
    entryPoints: Object.fromEntries(Object.entries(chunks).map(([name, source]) => [`cli/${name}`, source])),
    outdir: "dist",
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    mainFields: ["module", "main"],
    plugins: [builtinsRequired],
  }),
  build({ ...common, entryPoints: { index: "src/index.ts" }, outdir: "dist", format: "esm", plugins: [externalPackages("esm")], banner: esmRequire }),
  // The terminal UI's formatting worker (src/ui/tui/markdown-formatter.ts), with what it uses: beside the CLI bundle.
  build({ ...common, entryPoints: { "cli/markdown-worker": "src/ui/tui/markdown-worker.ts" }, outdir: "dist", outExtension: { ".js": ".cjs" }, format: "cjs" }),
]);

/**
 * An `import()` in a `vm.Script` needs `importModuleDynamically`, and the only
 * form Node 20 takes without a flag (USE_MAIN_CONTEXT_DEFAULT_LOADER) prints an
 * experimental warning on every start. So the bundle's `import("package")`s call
 * `__impt("package")` instead, a function src/launch/load-bundle.ts hands the
 * bundle (same length, so the source map still fits). Each one esbuild left is
 * renamed, and the count must match its list of them.
 */
const escapeNonAscii = (text) => text.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
// The CLI bundle and each chunk (which load the same way).
for (const [file, result] of [["dist/cli/main.cjs", results[0]], ...Object.keys(chunks).map((name) => [`dist/cli/${name}.cjs`, results[2]])]) {
  const dynamicImports = (result.metafile.outputs[file]?.imports ?? []).filter((each) => each.kind === "dynamic-import" && each.external).length;
  const text = await readFile(file, "utf8");
  if (text.includes("__impt")) throw new Error(`${file} already uses the name __impt: pick another for import()`);
  const count = text.match(/\bimport\("/g)?.length ?? 0;
  if (count !== dynamicImports) throw new Error(`${file}: found ${count} import("...") but esbuild lists ${dynamicImports} dynamic imports of packages`);
  /**
   * The bundle is also made pure ASCII: src/launch/load-bundle.ts reads it as
   * latin1, which takes under a millisecond, where decoding 4 MB holding a few
   * UTF-8 characters took 13 ms on every start. esbuild escapes them in code but
   * keeps comments as written; a `\uXXXX` escape means the same as the character
   * in strings, templates, regular expressions and identifiers, and nothing in a
   * comment (source map columns move on those lines only). After a backslash it
   * would not, so that is refused.
   */
  if (/\\[^\x00-\x7f]/.test(text)) throw new Error(`${file}: a backslash before a non-ASCII character, which an escape would change`);
  await writeFile(file, escapeNonAscii(text.replace(/\bimport\("/g, '__impt("')));
}

// `CAIRN_BUNDLE_META=file node scripts/bundle.js` writes what went into which file (for esbuild's analyzer).
if (process.env["CAIRN_BUNDLE_META"] !== undefined) {
  const outputs = Object.assign({}, ...results.map((result) => result.metafile.outputs));
  const inputs = Object.assign({}, ...results.map((result) => result.metafile.inputs));
  await writeFile(process.env["CAIRN_BUNDLE_META"], JSON.stringify({ inputs, outputs }));
}
