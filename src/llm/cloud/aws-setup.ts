/**
 * What Bedrock needs from the AWS set-up (issue 34): the region and the credentials, found where
 * the AWS CLI finds them. Credentials: a Bedrock API key (AWS_BEARER_TOKEN_BEDROCK or the key
 * given to cairn), else the environment (AWS_ACCESS_KEY_ID ...), else the standard chain of
 * @aws-sdk/credential-providers for the profile (shared config and credentials files, SSO, web
 * identity, container and instance roles), loaded on the first request.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { cloudCredentialsError } from "../errors.js";
import { firstSet } from "./cloud-options.js";
import type { BedrockSettings } from "./cloud-options.js";

export interface AwsIdentity {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

export interface AwsSetup {
  region: string;
  profile: string | undefined;
  /** A Bedrock API key: sent as a bearer token instead of signing. */
  bearerToken: string | undefined;
  /** Resolves the signing credentials; fails with a CloudCredentialsError that says what to run. */
  credentials: () => Promise<AwsIdentity>;
  /** What to run when AWS refuses them. */
  remedy: string;
}

/** `region` of the profile's section in the shared config file (`[default]` or `[profile NAME]`). */
function profileRegion(env: Record<string, string | undefined>, profile: string): string | undefined {
  const file = firstSet(env["AWS_CONFIG_FILE"]) ?? join(env["HOME"] ?? homedir(), ".aws", "config");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const wanted = profile === "default" ? ["default", "profile default"] : [`profile ${profile}`];
  let inSection = false;
  for (const line of text.split(/\r?\n/)) {
    const section = /^\s*\[\s*([^\]]+?)\s*\]/.exec(line);
    if (section?.[1] !== undefined) inSection = wanted.includes(section[1]);
    else if (inSection) {
      const region = /^\s*region\s*=\s*(\S+)/.exec(line)?.[1];
      if (region !== undefined) return region;
    }
  }
  return undefined;
}

function environmentKeys(env: Record<string, string | undefined>): AwsIdentity | undefined {
  const accessKeyId = firstSet(env["AWS_ACCESS_KEY_ID"]);
  const secretAccessKey = firstSet(env["AWS_SECRET_ACCESS_KEY"]);
  if (accessKeyId === undefined || secretAccessKey === undefined) return undefined;
  const sessionToken = firstSet(env["AWS_SESSION_TOKEN"]);
  return { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) };
}

/** The shared files, the profile and a web identity as the chain would read them from the environment. */
function chainOptions(env: Record<string, string | undefined>, profile: string | undefined): Record<string, string> {
  const options: Record<string, string> = {};
  const put = (key: string, value: string | undefined): void => {
    if (value !== undefined) options[key] = value;
  };
  put("profile", profile);
  put("filepath", firstSet(env["AWS_SHARED_CREDENTIALS_FILE"]));
  put("configFilepath", firstSet(env["AWS_CONFIG_FILE"]));
  put("webIdentityTokenFile", firstSet(env["AWS_WEB_IDENTITY_TOKEN_FILE"]));
  put("roleArn", firstSet(env["AWS_ROLE_ARN"]));
  put("roleSessionName", firstSet(env["AWS_ROLE_SESSION_NAME"]));
  return options;
}

export function awsSetup(options: { settings?: BedrockSettings | undefined; environment: Record<string, string | undefined>; apiKey?: string | undefined }): AwsSetup {
  const env = options.environment;
  const profile = firstSet(options.settings?.awsProfile, env["AWS_PROFILE"]);
  const region = firstSet(options.settings?.region, env["AWS_REGION"], env["AWS_DEFAULT_REGION"], profileRegion(env, profile ?? "default")) ?? "us-east-1";
  const bearerToken = firstSet(options.apiKey, env["AWS_BEARER_TOKEN_BEDROCK"]);
  const login = profile === undefined ? "aws sso login" : `aws sso login --profile ${profile}`;
  const remedy =
    bearerToken !== undefined
      ? "set AWS_BEARER_TOKEN_BEDROCK (or --api-key) to a valid Bedrock API key"
      : `run \`${login}\` (or refresh the keys of AWS_ACCESS_KEY_ID / ~/.aws/credentials${profile === undefined ? "" : ` for profile ${profile}`})`;
  let chain: (() => Promise<AwsIdentity>) | undefined;
  const credentials = async (): Promise<AwsIdentity> => {
    try {
      // Keys in the environment win, as with the AWS CLI. They are read from `environment`: cairn's
      // own process.env no longer holds AWS_* variables (secret-environment.ts), so neither can the SDK.
      const fromEnvironment = environmentKeys(env);
      if (fromEnvironment !== undefined) return fromEnvironment;
      if (chain === undefined) {
        const { fromNodeProviderChain } = await import("@aws-sdk/credential-providers");
        chain = fromNodeProviderChain(chainOptions(env, profile));
      }
      return await chain();
    } catch (error) {
      throw cloudCredentialsError("no usable AWS credentials", remedy, error);
    }
  };
  return { region, profile, bearerToken, credentials, remedy };
}

/** The AWS SDK's exceptions (a name, `$metadata.httpStatusCode`) shaped as the other SDKs' errors, for `toProviderError`. */
export function shapeAwsError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  const inStream = /Exception$/.test(error.name) && metadata?.httpStatusCode === undefined;
  const status = metadata?.httpStatusCode ?? (error.name === "ThrottlingException" ? 429 : undefined);
  if (status === undefined && !inStream) return error;
  const headers = (error as { $response?: { headers?: Record<string, string> } }).$response?.headers ?? {};
  const type = error.name === "ThrottlingException" ? "rate_limit_error" : error.name === "ServiceUnavailableException" ? "overloaded_error" : error.name;
  return {
    name: error.name,
    message: error.message,
    ...(status === undefined ? {} : { status }),
    error: { error: { type, message: `${error.name}: ${error.message}` } },
    headers: { get: (name: string) => headers[name] ?? null },
    cause: error,
  };
}
