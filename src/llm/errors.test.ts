import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { ProviderError, retryAfterFromHeaders, toProviderError } from "./errors.js";

const context = { providerName: "anthropic", apiKeyEnv: "ANTHROPIC_API_KEY", sdk: Anthropic };

function anthropicError(status: number, type: string, message: string, headers: Record<string, string> = {}) {
  return Anthropic.APIError.generate(status, { type: "error", error: { type, message } }, message, new Headers(headers));
}

describe("toProviderError", () => {
  it.each([
    [429, "rate_limit_error", "slow down", "rate_limit", true],
    [529, "overloaded_error", "Overloaded", "overloaded", true],
    [500, "api_error", "boom", "server", true],
    [503, "api_error", "unavailable", "server", true],
    [401, "authentication_error", "invalid x-api-key", "auth", false],
    [403, "permission_error", "no access", "auth", false],
    [400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum", "context_window", false],
    [400, "invalid_request_error", "messages.1: tool_use ids were found without tool_result blocks", "bad_request", false],
    [404, "not_found_error", "model: nope", "bad_request", false],
  ])("classifies Anthropic HTTP %i (%s)", (status, type, message, kind, retryable) => {
    const error = toProviderError(anthropicError(status, type, message), context);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.message).toContain(message);
  });

  it("classifies OpenAI's context_length_exceeded code", () => {
    const body = { message: "This model's maximum context length is 128000 tokens.", type: "invalid_request_error", code: "context_length_exceeded" };
    const error = toProviderError(OpenAI.APIError.generate(400, { error: body }, undefined, new Headers()), { providerName: "openai" });
    expect(error.kind).toBe("context_window");
  });

  it("names the environment variable in auth errors and never prints a key", () => {
    const error = toProviderError(anthropicError(401, "authentication_error", "invalid x-api-key"), context);
    expect(error.message).toContain("ANTHROPIC_API_KEY");
    expect(error.message).not.toMatch(/sk-/);
  });

  it("reads retry-after seconds and retry-after-ms", () => {
    expect(toProviderError(anthropicError(429, "rate_limit_error", "x", { "retry-after": "7" }), context).retryAfterMs).toBe(7000);
    expect(toProviderError(anthropicError(429, "rate_limit_error", "x", { "retry-after": "7", "retry-after-ms": "1500" }), context).retryAfterMs).toBe(1500);
    const now = Date.parse("2026-11-30T12:00:00Z");
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "Mon, 30 Nov 2026 12:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "soon" }))).toBeUndefined();
  });

  it("classifies stream error events without a status by their type", () => {
    const overloaded = new Anthropic.APIError(undefined, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, undefined, new Headers());
    expect(toProviderError(overloaded, context).kind).toBe("overloaded");
  });

  it("classifies connection failures as network and aborts as aborted", () => {
    expect(toProviderError(new Anthropic.APIConnectionError({ message: "Connection error." }), context).kind).toBe("network");
    expect(toProviderError(new TypeError("terminated", { cause: { code: "UND_ERR_SOCKET" } }), context).kind).toBe("network");
    expect(toProviderError(new Anthropic.APIUserAbortError(), context).kind).toBe("aborted");
    expect(toProviderError(new DOMException("This operation was aborted", "AbortError"), context).kind).toBe("aborted");
    const openai = { providerName: "openai", sdk: OpenAI };
    expect(toProviderError(new OpenAI.APIConnectionError({ message: "Connection error." }), openai).kind).toBe("network");
    expect(toProviderError(new OpenAI.APIConnectionTimeoutError(), openai).kind).toBe("network");
    expect(toProviderError(new OpenAI.APIUserAbortError(), openai).kind).toBe("aborted");
  });

  it("SDK errors are known by class, not by name, which a bundle may change (APIConnectionError2)", () => {
    // What esbuild does when two bundled SDKs both define APIConnectionError.
    const renamed = { APIConnectionError2: class extends OpenAI.APIConnectionError {} }.APIConnectionError2;
    expect(renamed.name).toBe("APIConnectionError2");
    expect(toProviderError(new renamed({ message: "Connection error." }), { providerName: "openai", sdk: OpenAI }).kind).toBe("network");
    // A look-alike from elsewhere is not taken for the SDK's.
    const lookAlike = { APIConnectionError: class extends Error {} }.APIConnectionError;
    expect(toProviderError(new lookAlike("Connection error."), context).kind).not.toBe("network");
  });

  it("does not retry errors it cannot classify", () => {
    const error = toProviderError(new RangeError("bug"), context);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("bug");
  });
});
