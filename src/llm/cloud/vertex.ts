/**
 * Google Vertex AI (issue 34): Anthropic models through @anthropic-ai/vertex-sdk
 * (streamRawPredict), authenticated with Application Default Credentials: the service-account or
 * `gcloud` user file of GOOGLE_APPLICATION_CREDENTIALS (read from cairn's withdrawn secrets), else
 * the well-known gcloud file or the metadata server, through google-auth-library. Gemini's
 * models through @google/genai in its Vertex mode, with the same credentials.
 */
import { cloudCredentialsError, ProviderError } from "../errors.js";
import type { Provider } from "../types.js";
import { anthropicOnCloud, cloudClientOptions } from "./anthropic-on-cloud.js";
import type { AnthropicCloudOptions } from "./anthropic-on-cloud.js";
import { firstSet, passedOn, vertexLocation } from "./cloud-options.js";
import type { VertexSettings } from "./cloud-options.js";

const remedy = "run `gcloud auth application-default login` (or point GOOGLE_APPLICATION_CREDENTIALS at a valid service-account file)";

export interface VertexProviderOptions extends AnthropicCloudOptions {
  vertex?: VertexSettings;
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
      ...passedOn(options),
    });
  }
  if (!/claude/.test(options.model.id)) {
    throw new ProviderError({ kind: "bad_request", retryable: false, message: `vertex: cairn serves Anthropic's (claude-…) and Google's (gemini-…) models on Vertex AI, not ${options.model.id}` });
  }
  const [{ GoogleAuth }, { AnthropicVertex }] = await Promise.all([import("google-auth-library"), import("@anthropic-ai/vertex-sdk")]);
  const auth = new GoogleAuth({ scopes: "https://www.googleapis.com/auth/cloud-platform", ...(keyFilename === undefined ? {} : { keyFilename }), ...(projectId === undefined ? {} : { projectId }) });
  let client: HeadersSource | undefined;
  const authClient: HeadersSource = {
    projectId: projectId ?? null,
    getRequestHeaders: async () => {
      try {
        client ??= (await auth.getClient()) as unknown as HeadersSource;
        return await client.getRequestHeaders();
      } catch (error) {
        throw cloudCredentialsError("no usable Google credentials", remedy, error);
      }
    },
  };
  const anthropic = new AnthropicVertex({
    region,
    projectId: projectId ?? null,
    authClient: authClient as never,
    ...cloudClientOptions("vertex-2023-10-16", options),
    ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
  });
  return anthropicOnCloud(anthropic, { name: "vertex", authRemedy: remedy }, options);
}
