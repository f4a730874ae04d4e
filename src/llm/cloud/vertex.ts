/**
 * Google Vertex AI (issue 34): Anthropic models through @anthropic-ai/vertex-sdk
 * (streamRawPredict), authenticated with Application Default Credentials: the service-account or
 * `gcloud` user file of GOOGLE_APPLICATION_CREDENTIALS (read from cairn's withdrawn secrets), else
 * the well-known gcloud file or the metadata server, through google-auth-library. Gemini's
 * models through @google/genai in its Vertex mode, with the same credentials.
 */
import { CloudCredentialsError, ProviderError } from "../errors.js";
import type { StallTimeouts } from "../stall.js";
import type { ModelInfo, Provider } from "../types.js";
import { firstSet, vertexLocation } from "./cloud-options.js";
import type { VertexSettings } from "./cloud-options.js";

const remedy = "run `gcloud auth application-default login` (or point GOOGLE_APPLICATION_CREDENTIALS at a valid service-account file)";

export interface VertexProviderOptions {
  model: ModelInfo;
  /** `--base-url`: an endpoint other than REGION-aiplatform.googleapis.com/v1. */
  baseUrl?: string;
  vertex?: VertexSettings;
  environment: Record<string, string | undefined>;
  stall?: Partial<StallTimeouts>;
  fetch?: typeof fetch;
  thinkingBudgetTokens?: number;
  onNotice?: (message: string) => void;
}

interface HeadersSource {
  projectId?: string | null;
  getRequestHeaders(): Promise<Headers>;
}

export async function createVertexProvider(options: VertexProviderOptions): Promise<Provider> {
  const env = options.environment;
  const settings = options.vertex ?? {};
  const region = vertexLocation(settings, env);
  const projectId = firstSet(settings.project, env["GOOGLE_CLOUD_PROJECT"], env["ANTHROPIC_VERTEX_PROJECT_ID"]);
  const keyFilename = firstSet(env["GOOGLE_APPLICATION_CREDENTIALS"]);
  if (/^gemini/.test(options.model.id)) {
    const { GeminiProvider } = await import("../gemini.js");
    return new GeminiProvider({
      model: options.model,
      vertex: { location: region, remedy, ...(projectId === undefined ? {} : { project: projectId }), ...(keyFilename === undefined ? {} : { keyFilename }) },
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.stall === undefined ? {} : { stall: options.stall }),
      ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }),
    });
  }
  if (!/claude/.test(options.model.id)) {
    throw new ProviderError({ kind: "bad_request", retryable: false, message: `vertex: cairn serves Anthropic's (claude-…) and Google's (gemini-…) models on Vertex AI, not ${options.model.id}` });
  }
  const [{ GoogleAuth }, { AnthropicVertex }, { AnthropicProvider }] = await Promise.all([import("google-auth-library"), import("@anthropic-ai/vertex-sdk"), import("../anthropic.js")]);
  const auth = new GoogleAuth({ scopes: "https://www.googleapis.com/auth/cloud-platform", ...(keyFilename === undefined ? {} : { keyFilename }), ...(projectId === undefined ? {} : { projectId }) });
  let client: HeadersSource | undefined;
  const authClient: HeadersSource = {
    projectId: projectId ?? null,
    getRequestHeaders: async () => {
      try {
        client ??= (await auth.getClient()) as unknown as HeadersSource;
        return await client.getRequestHeaders();
      } catch (error) {
        const detail = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
        throw new CloudCredentialsError(`no usable Google credentials (${detail}). To fix: ${remedy}.`, { cause: error });
      }
    },
  };
  const anthropic = new AnthropicVertex({
    region,
    projectId: projectId ?? null,
    authClient: authClient as never,
    maxRetries: 0,
    // Vertex AI's documented version of the Messages API; the client moves it from this header into the body.
    defaultHeaders: { "anthropic-version": "vertex-2023-10-16" },
    ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  return new AnthropicProvider({
    client: anthropic,
    name: "vertex",
    model: options.model,
    authRemedy: remedy,
    ...(options.stall === undefined ? {} : { stall: options.stall }),
    ...(options.thinkingBudgetTokens === undefined ? {} : { thinkingBudgetTokens: options.thinkingBudgetTokens }),
    ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }),
  });
}
