/**
 * Where a cloud provider's models live: the settings of Azure OpenAI, Amazon Bedrock and
 * Google Vertex AI that are not an API key (issue 34). Each provider reads its own block and
 * the environment variables its official SDK reads.
 */
import type { StallTimeouts } from "../stall.js";
import type { ModelInfo } from "../types.js";

/** What every cloud provider's factory takes from createProvider. */
export interface CloudProviderOptions {
  model: ModelInfo;
  /** `--base-url`: an endpoint other than the cloud's own (a VPC endpoint, a test server). */
  baseUrl?: string;
  /** Where credentials and settings are looked up (cairn's withdrawn secrets included). */
  environment: Record<string, string | undefined>;
  stall?: Partial<StallTimeouts>;
  fetch?: typeof fetch;
  onNotice?: (message: string) => void;
}

/** The options a provider takes as they are: only those that are set (the types have exact optional properties). */
export function passedOn(options: CloudProviderOptions): { stall?: Partial<StallTimeouts>; onNotice?: (message: string) => void } {
  return { ...(options.stall === undefined ? {} : { stall: options.stall }), ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }) };
}
export interface AzureSettings {
  /** `https://RESOURCE.openai.azure.com` (else `--base-url` or AZURE_OPENAI_ENDPOINT). */
  endpoint?: string | undefined;
  /** The deployment's name (else AZURE_OPENAI_DEPLOYMENT, else the model id). */
  deployment?: string | undefined;
  /** `api-version` (else OPENAI_API_VERSION, else azureDefaultApiVersion). */
  apiVersion?: string | undefined;
  /** Chat Completions (default) or the Responses API. */
  api?: "chat" | "responses" | undefined;
}

export interface BedrockSettings {
  /** Else AWS_REGION, AWS_DEFAULT_REGION, the profile's region in ~/.aws/config, else us-east-1. */
  region?: string | undefined;
  /** A profile of ~/.aws/config and ~/.aws/credentials (else AWS_PROFILE, else `default`). */
  awsProfile?: string | undefined;
}

export interface VertexSettings {
  /** Else GOOGLE_CLOUD_PROJECT / ANTHROPIC_VERTEX_PROJECT_ID, else the credentials file's project. */
  project?: string | undefined;
  /** Else CLOUD_ML_REGION / GOOGLE_CLOUD_LOCATION, else `global`. */
  region?: string | undefined;
}

export interface CloudSettings {
  azure?: AzureSettings | undefined;
  bedrock?: BedrockSettings | undefined;
  vertex?: VertexSettings | undefined;
}

export const cloudProviderNames = ["azure", "bedrock", "vertex"] as const;
export type CloudProviderName = (typeof cloudProviderNames)[number];

export function isCloudProvider(name: string): name is CloudProviderName {
  return (cloudProviderNames as readonly string[]).includes(name);
}

/** The first non-empty value. */
export function firstSet(...values: Array<string | undefined>): string | undefined {
  return values.find((value) => value !== undefined && value.trim() !== "")?.trim();
}

/** Vertex AI's location: the settings, CLOUD_ML_REGION, GOOGLE_CLOUD_LOCATION, else `global`. */
export function vertexLocation(settings: VertexSettings | undefined, env: Record<string, string | undefined>): string {
  return firstSet(settings?.region, env["CLOUD_ML_REGION"], env["GOOGLE_CLOUD_LOCATION"]) ?? "global";
}
