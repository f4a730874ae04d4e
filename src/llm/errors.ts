import type { ProviderErrorKind } from "./types.js";

/** Kinds that may succeed when the same request is sent again. */
const retryableKinds: ReadonlySet<ProviderErrorKind> = new Set<ProviderErrorKind>(["rate_limit", "overloaded", "server", "network", "stalled"]);

export function isRetryableKind(kind: ProviderErrorKind): boolean {
  return retryableKinds.has(kind);
}

export interface ProviderErrorOptions {
  kind: ProviderErrorKind;
  message: string;
  status?: number;
  /** Defaults to whether `kind` is worth retrying. */
  retryable?: boolean;
  retryAfterMs?: number;
  cause?: unknown;
}

/** The one error every provider throws; the Task decides on retries from `kind` and `retryable`. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;

  constructor(options: ProviderErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.kind = options.kind;
    this.retryable = options.retryable ?? isRetryableKind(options.kind);
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * Credentials a cloud provider could not get (none found, an expired SSO session, a refused
 * token exchange): cairn's credential providers throw it, whatever the SDK wraps it in, and it
 * becomes an unrecoverable `auth` error that says what to run.
 */
export class CloudCredentialsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CloudCredentialsError";
  }
}

/** `what` could not be had: the library's first line of why, and what to run. */
export function cloudCredentialsError(what: string, remedy: string, error: unknown): CloudCredentialsError {
  const detail = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
  return new CloudCredentialsError(`${what} (${detail}). To fix: ${remedy}.`, { cause: error });
}

function credentialsFailure(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    if (current instanceof Error && current.name === "CloudCredentialsError") return current;
    current = field(current, "cause");
  }
  return undefined;
}

/** Any class, for `instanceof`. */
type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * An SDK's error classes (the Anthropic and OpenAI clients carry them as statics,
 * so the client class itself fits). Checked with `instanceof`, never by class
 * name: a bundle renames classes that share a name (both SDKs have an `APIError`).
 */
export interface SdkErrorClasses {
  readonly APIError: ErrorClass;
  readonly APIConnectionError: ErrorClass;
  readonly APIUserAbortError: ErrorClass;
}

export interface ErrorContext {
  /** e.g. "anthropic", "openai", "mock"; used in messages. */
  providerName: string;
  /** The environment variable that holds the key, named in auth errors. */
  apiKeyEnv?: string;
  /** What to do about rejected credentials when they are not an API key (`aws sso login`, `az login` ...). */
  authRemedy?: string;
  /** Reshapes an SDK's own errors (the AWS SDK's exceptions) as the other SDKs' errors before they are classified. */
  shapeError?: (error: unknown) => unknown;
  /** The SDK whose errors these are: its connection, abort and in-stream errors are told apart by class. */
  sdk?: SdkErrorClasses;
}

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * Reads `retry-after-ms` (milliseconds, sent by Anthropic and OpenAI) and `retry-after`
 * (seconds or an HTTP date). Returns undefined when neither is usable.
 */
export function retryAfterFromHeaders(headers: HeaderSource | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null) {
    const value = Number.parseFloat(milliseconds);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const retryAfter = headers.get("retry-after");
  if (retryAfter === null) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0 && /^\s*[\d.]+\s*$/.test(retryAfter)) return Math.round(seconds * 1000);
  const date = Date.parse(retryAfter);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

const contextWindowWording = /prompt is too long|context[ _-]?(length|window)|maximum context|too many tokens|exceeds? the context|input length and `?max_tokens`? exceed|reduce the length of the messages/i;

const networkCodes = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

function field(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}

function stringField(value: unknown, key: string): string | undefined {
  const found = field(value, key);
  return typeof found === "string" ? found : undefined;
}

function isHeaderSource(value: unknown): value is HeaderSource {
  return typeof value === "object" && value !== null && typeof (value as { get?: unknown }).get === "function";
}

/** Walks an error's `cause` chain looking for a Node or undici network error code. */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    const code = stringField(current, "code");
    if (code !== undefined && networkCodes.has(code)) return code;
    current = field(current, "cause");
  }
  return undefined;
}

/** TLS verification failures: retrying cannot help, the user's trust store can (#20 item 4). */
const certificateCodes = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_UNTRUSTED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

function certificateCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    const code = stringField(current, "code");
    if (code !== undefined && certificateCodes.has(code)) return code;
    current = field(current, "cause");
  }
  return undefined;
}

function isAbort(error: unknown, sdk: SdkErrorClasses | undefined): boolean {
  const name = stringField(error, "name");
  return name === "AbortError" || (sdk !== undefined && error instanceof sdk.APIUserAbortError);
}

/**
 * The API's own error types and codes: Anthropic puts the type at `error.type` of the body
 * (`overloaded_error`); OpenAI sends `type` and `code` (`context_length_exceeded`), and its SDK
 * keeps the inner object as `error` and copies both onto the thrown error.
 */
function apiErrorTypes(error: unknown, body: unknown): string[] {
  const inner = field(body, "error");
  return [stringField(inner, "type"), stringField(inner, "code"), stringField(body, "type"), stringField(body, "code"), stringField(error, "type"), stringField(error, "code")].filter(
    (value): value is string => value !== undefined && value !== "error",
  );
}

function apiErrorMessage(body: unknown, fallback: string): string {
  const inner = field(body, "error");
  return stringField(inner, "message") ?? stringField(body, "message") ?? fallback;
}

function kindFromStatus(status: number, types: string[], message: string): ProviderErrorKind {
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limit";
  if (status === 529 || types.includes("overloaded_error")) return "overloaded";
  if (status === 408) return "network";
  if (status >= 500) return "server";
  if (types.includes("context_length_exceeded") || contextWindowWording.test(message)) return "context_window";
  return "bad_request";
}

/** Classifies an error that arrived inside a stream (no HTTP status), by the API's error type. */
function kindFromTypes(types: string[], message: string): ProviderErrorKind {
  const known = types.find((type) => typeKinds[type] !== undefined);
  if (known !== undefined && known !== "invalid_request_error") return typeKinds[known] ?? "server";
  if (contextWindowWording.test(message)) return "context_window";
  return known === undefined ? "server" : "bad_request";
}

const typeKinds: Record<string, ProviderErrorKind> = {
  rate_limit_error: "rate_limit",
  rate_limit_exceeded: "rate_limit",
  insufficient_quota: "rate_limit",
  overloaded_error: "overloaded",
  authentication_error: "auth",
  permission_error: "auth",
  invalid_api_key: "auth",
  context_length_exceeded: "context_window",
  invalid_request_error: "bad_request",
};

function describe(kind: ProviderErrorKind, context: ErrorContext, detail: string, status: number | undefined): string {
  const where = status === undefined ? context.providerName : `${context.providerName} (HTTP ${status})`;
  switch (kind) {
    case "auth": {
      if (context.authRemedy !== undefined) return `${where} rejected the credentials: ${detail}. To fix: ${context.authRemedy}.`;
      const remedy = context.apiKeyEnv === undefined ? "check the API key you configured" : `set ${context.apiKeyEnv} to a valid API key (or pass --api-key)`;
      return `${where} rejected the API key: ${detail}. To fix: ${remedy}.`;
    }
    case "rate_limit":
      return `${where} rate limit reached: ${detail}`;
    case "overloaded":
      return `${where} is overloaded: ${detail}`;
    case "server":
      return `${where} server error: ${detail}`;
    case "context_window":
      return `${where}: the conversation no longer fits the model's context window: ${detail}`;
    case "bad_request":
      return `${where} refused the request: ${detail}`;
    case "network":
      return `${where} network error: ${detail}`;
    case "stalled":
      return `${where} stream stalled: ${detail}`;
    case "aborted":
      return `${where} request aborted`;
  }
}

/**
 * Turns anything a provider SDK (or fetch, or a socket) throws into a ProviderError.
 * Never includes the API key: SDK messages do not carry it, and we add only the variable's name.
 */
export function toProviderError(thrown: unknown, context: ErrorContext): ProviderError {
  if (thrown instanceof ProviderError) return thrown;
  if (isAbort(thrown, context.sdk)) {
    return new ProviderError({ kind: "aborted", message: describe("aborted", context, "", undefined), cause: thrown });
  }
  const credentials = credentialsFailure(thrown);
  if (credentials !== undefined) return new ProviderError({ kind: "auth", retryable: false, message: `${context.providerName}: ${credentials.message}`, cause: thrown });
  const error = context.shapeError === undefined ? thrown : context.shapeError(thrown);
  const status = field(error, "status");
  const body = field(error, "error");
  const rawMessage = error instanceof Error ? error.message : String(error);
  const headersValue = field(error, "headers");
  const headers = isHeaderSource(headersValue) ? headersValue : undefined;

  if (typeof status === "number") {
    const detail = apiErrorMessage(body, rawMessage);
    const kind = kindFromStatus(status, apiErrorTypes(error, body), detail);
    const retryAfterMs = retryAfterFromHeaders(headers);
    return new ProviderError({
      kind,
      status,
      message: describe(kind, context, detail, status),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      cause: error,
    });
  }

  const certificate = certificateCode(error);
  if (certificate !== undefined) {
    const detail = `the server's TLS certificate is not trusted (${certificate}); if a company proxy or server uses its own certificate authority, set NODE_EXTRA_CA_CERTS to its certificate file`;
    return new ProviderError({ kind: "network", retryable: false, message: describe("network", context, detail, undefined), cause: error });
  }

  const code = networkCode(error);
  const looksLikeNetwork =
    code !== undefined ||
    // Timeouts too: the SDKs' APIConnectionTimeoutError extends APIConnectionError.
    (context.sdk !== undefined && error instanceof context.sdk.APIConnectionError) ||
    (error instanceof TypeError && /fetch failed|terminated|network|socket/i.test(rawMessage));
  if (looksLikeNetwork) {
    const detail = code === undefined ? rawMessage : `${rawMessage} (${code})`;
    return new ProviderError({ kind: "network", message: describe("network", context, detail, undefined), cause: error });
  }

  // An SDK APIError without a status: the server sent an error event inside the stream.
  if (body !== undefined || (context.sdk !== undefined && error instanceof context.sdk.APIError)) {
    const detail = apiErrorMessage(body, rawMessage);
    const kind = kindFromTypes(apiErrorTypes(error, body), detail);
    return new ProviderError({ kind, message: describe(kind, context, detail, undefined), cause: error });
  }

  // Anything else is not an API failure we understand (a malformed stream, a bug): report it, do not retry.
  return new ProviderError({
    kind: "server",
    retryable: false,
    message: describe("server", context, rawMessage, undefined),
    cause: error,
  });
}
