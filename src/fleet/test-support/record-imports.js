// Preloaded with `node --import`: records every module URL that resolves to bullmq, ioredis, OpenTelemetry or a cloud provider's SDK (issue 34) in $CAIRN_RECORD_IMPORTS,
// and every chunk of the CLI bundle that is loaded (dist/cli/NAME.cjs but main.cjs: OpenTelemetry is bundled into one, scripts/bundle.js `chunks`).
import fs, { appendFileSync } from "node:fs";
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (/node_modules\\/(bullmq|ioredis|@opentelemetry|@azure|@aws-sdk|@smithy|@anthropic-ai\\/(bedrock|vertex)-sdk|google-auth-library)\\//.test(result.url)) appendFileSync(process.env.CAIRN_RECORD_IMPORTS, result.url + "\\n");
  return result;
}`)}`,
);

// A chunk is read whole by the launcher (src/launch/load-bundle.ts) and run as a vm.Script: no resolve hook sees it.
const readFileSync = fs.readFileSync;
fs.readFileSync = function recordChunk(path, ...rest) {
  if (typeof path === "string" && /[\\/]dist[\\/]cli[\\/](?!main\.)[\w-]+\.cjs$/.test(path)) appendFileSync(process.env.CAIRN_RECORD_IMPORTS, `${path}\n`);
  return readFileSync.call(this, path, ...rest);
};
