import { toProviderError } from "./errors.js";
import type { ErrorContext, ProviderError } from "./errors.js";

/**
 * The @google/genai SDK throws `ApiError` with the HTTP status and, as its message, the JSON
 * error body (`{"error":{"code":429,"message":…,"status":"RESOURCE_EXHAUSTED","details":[…]}}`),
 * without the response headers. The retry delay is in the body's RetryInfo detail.
 */
interface GeminiErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<Record<string, unknown>>;
}

function parseBody(message: string): GeminiErrorBody | undefined {
  const start = message.indexOf("{");
  if (start === -1) return undefined;
  try {
    const value = JSON.parse(message.slice(start)) as { error?: unknown };
    return typeof value.error === "object" && value.error !== null ? value.error : undefined;
  } catch {
    return undefined;
  }
}

/** "12s", "1.5s" or "0.250s" (a protobuf Duration as JSON) in milliseconds. */
export function retryDelayMs(details: GeminiErrorBody["details"]): number | undefined {
  for (const detail of details ?? []) {
    const delay = detail["retryDelay"];
    if (typeof detail["@type"] === "string" && detail["@type"].endsWith("RetryInfo") && typeof delay === "string") {
      const match = /^(\d+(?:\.\d+)?)s$/.exec(delay.trim());
      if (match?.[1] !== undefined) return Math.round(Number.parseFloat(match[1]) * 1000);
    }
  }
  return undefined;
}

function hasReason(details: GeminiErrorBody["details"], reason: string): boolean {
  return (details ?? []).some((detail) => detail["reason"] === reason);
}

const contextWording = /input token count.*exceeds|exceeds the maximum number of tokens/i;

/** Any failure of a Gemini request as a ProviderError; ApiErrors are read as Gemini reports them. */
export function geminiProviderError(error: unknown, context: ErrorContext): ProviderError {
  const isApiError = error instanceof Error && error.name === "ApiError" && typeof (error as { status?: unknown }).status === "number";
  if (!isApiError) return toProviderError(error, context);
  const body = parseBody(error.message);
  let status = (error as unknown as { status: number }).status;
  // An invalid key is a 400 INVALID_ARGUMENT with the reason API_KEY_INVALID: it is an auth failure.
  if (hasReason(body?.details, "API_KEY_INVALID")) status = 401;
  const message = body?.message ?? error.message;
  const delay = retryDelayMs(body?.details);
  const overloaded = status === 503 || /overloaded/i.test(message);
  const type = contextWording.test(message) ? "context_length_exceeded" : overloaded && status >= 500 ? "overloaded_error" : (body?.status ?? "error");
  // Shaped as the other SDKs' errors, so the kinds and messages are the same for every provider.
  return toProviderError(
    {
      name: "ApiError",
      message,
      status,
      error: { error: { message, type } },
      headers: { get: (name: string) => (name === "retry-after-ms" && delay !== undefined ? String(delay) : null) },
    },
    context,
  );
}
