/**
 * The `azure`, `bedrock` and `vertex` blocks of a config file or a profile (issue 34):
 * where a cloud provider's models live, never a key. Flattened into layers as
 * `azure.endpoint`, `bedrock.region` ..., resolved with the usual precedence.
 */
import { z } from "zod";
import type { CloudSettings } from "../llm/cloud/cloud-options.js";

const text = z.string().min(1);

export const cloudSettingsSchema = {
  azure: z.strictObject({ endpoint: z.url().optional(), deployment: text.optional(), apiVersion: text.optional(), api: z.enum(["chat", "responses"]).optional() }).optional(),
  bedrock: z.strictObject({ region: text.optional(), awsProfile: text.optional() }).optional(),
  vertex: z.strictObject({ project: text.optional(), region: text.optional() }).optional(),
};

const cloudKeys = {
  azure: ["endpoint", "deployment", "apiVersion", "api"],
  bedrock: ["region", "awsProfile"],
  vertex: ["project", "region"],
} as const;

/** Sets `azure.endpoint` and the like on a layer from a config file's or a profile's blocks. */
export function setCloudKeys(values: Map<string, unknown>, source: CloudSettings): void {
  for (const [block, keys] of Object.entries(cloudKeys) as Array<[keyof CloudSettings, readonly string[]]>) {
    const settings = source[block] as Record<string, unknown> | undefined;
    for (const key of keys) {
      const value = settings?.[key];
      if (value !== undefined) values.set(`${block}.${key}`, value);
    }
  }
}

/** The blocks in force; `optional` reads one dotted key through the layers (and records its source). */
export function resolveCloudSettings(optional: <T>(key: string) => T | undefined): CloudSettings {
  const settings: Record<string, Record<string, unknown>> = {};
  for (const [block, keys] of Object.entries(cloudKeys)) {
    for (const key of keys) {
      const value = optional<unknown>(`${block}.${key}`);
      if (value !== undefined) (settings[block] ??= {})[key] = value;
    }
  }
  return settings;
}
