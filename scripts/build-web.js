/**
 * Builds the web UI of `cairn serve` (docs/server.md, issue 29) at package time:
 * src/web/ (TypeScript and Preact) bundled by esbuild into `dist/web/index.html`
 * and `dist/web/assets/*`, which the server serves as `GET /` and
 * `GET /assets/NAME`. Nothing is fetched at run time (no CDN): the page is
 * this script, this style sheet, and the server's API.
 *
 * Asset names carry a hash of their content, so a browser may keep them for
 * good while index.html always names the current ones. The build fails when
 * the script grows past its budget (gzip), to be looked at before it ships.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const out = "dist/web";
const scriptBudgetGzipBytes = 60 * 1024;

await rm(out, { recursive: true, force: true });
await mkdir(`${out}/assets`, { recursive: true });

const result = await build({
  entryPoints: { app: "src/web/main.tsx" },
  bundle: true,
  outdir: `${out}/assets`,
  entryNames: "[name]-[hash]",
  format: "esm",
  platform: "browser",
  target: ["es2022"],
  tsconfig: "src/web/tsconfig.json",
  jsx: "automatic",
  jsxImportSource: "preact",
  minify: true,
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
  define: { "process.env.NODE_ENV": '"production"' },
});

const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
const script = outputs.find((name) => name.endsWith(".js"));
const style = outputs.find((name) => name.endsWith(".css"));
if (script === undefined || style === undefined) throw new Error(`build-web: expected a script and a style sheet, got ${outputs.join(", ")}`);

const gzipped = gzipSync(await readFile(`${out}/assets/${script}`)).length;
if (gzipped > scriptBudgetGzipBytes) throw new Error(`build-web: ${script} is ${gzipped} bytes gzipped, over its budget of ${scriptBudgetGzipBytes}`);

await writeFile(
  `${out}/index.html`,
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>cairn</title>
<link rel="stylesheet" href="/assets/${style}">
<script type="module" src="/assets/${script}"></script>
</head>
<body><noscript>cairn's web UI needs JavaScript.</noscript><div id="app"></div></body>
</html>
`,
);
