// Preloaded with `node --import`: records every module URL that resolves to bullmq, ioredis, OpenTelemetry or a cloud provider's SDK (issue 34) in $CAIRN_RECORD_IMPORTS.
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
