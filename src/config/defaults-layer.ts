/** The built-in defaults: the lowest layer of the settings (src/config/resolve.ts). */
import { defaultContextSettings } from "../context/context-settings.js";
import { defaultApprovalSettings } from "../tools/approval.js";
import { createLayer, type Layer } from "./layers.js";
import { defaultDataDir } from "./paths.js";
import { autoApproveKeys } from "./types.js";

export function defaultsLayer(): Layer {
  const layer = createLayer("default", "built-in default");
  const values: Record<string, unknown> = {
    provider: "anthropic",
    toolProtocol: "xml",
    yes: false,
    json: false,
    plan: false,
    parallelTools: false,
    keepBackgroundProcesses: false,
    editDiagnostics: true,
    allowOutsideWrites: false,
    sandbox: "off",
    sandboxNetwork: false,
    allowOutsideReads: false,
    checkpoints: true,
    "notifications.channel": "auto",
    "notifications.afterSeconds": 20,
    maxMistakes: 3,
    dataDir: defaultDataDir(),
    onAsk: "fail",
    "timeouts.firstChunkMs": 60_000,
    "timeouts.betweenChunksMs": 30_000,
    "timeouts.mcpWaitMs": 10_000,
    "timeouts.diagnosticsMs": 5_000,
    "retry.delaysMs": [2000, 4000, 8000],
    "subagents.maxParallel": 3,
    "autoMode.enabled": false,
    "autoMode.maxTokens": 200_000,
    "autoMode.timeoutMs": 20_000,
  };
  for (const [key, value] of Object.entries(defaultContextSettings)) values[`context.${key}`] = value;
  for (const key of autoApproveKeys) values[`autoApprove.${key}`] = defaultApprovalSettings[key];
  for (const [key, value] of Object.entries(values)) layer.values.set(key, value);
  return layer;
}
