import { describe, expect, it } from "vitest";
import { looksSecret, scrubEnvironment, secretValues } from "./child-environment.js";
import { SecretRedactor } from "./redaction.js";

describe("#14 child environment and redaction", () => {
  it("drops variables whose names look like keys, tokens, passwords or secrets, unless allowed", () => {
    const env = { PATH: "/usr/bin", HOME: "/home/u", PWD: "/w", ANTHROPIC_API_KEY: "sk-1", GITHUB_TOKEN: "t", DB_PASSWORD: "p", AWS_ACCESS_KEY_ID: "a", MY_SECRET: "s", SSH_AUTH_SOCK: "/tmp/agent", NPM_TOKEN: "n", EDITOR: "vi" };
    expect(scrubEnvironment(env, ["NPM_TOKEN"])).toEqual({ PATH: "/usr/bin", HOME: "/home/u", PWD: "/w", NPM_TOKEN: "n", EDITOR: "vi" });
    expect(["KEYBOARD", "MONKEY", "TOKENIZERS_PARALLELISM"].map(looksSecret)).toEqual([false, false, false]);
    expect(secretValues({ A_TOKEN: "long-enough-value", B_TOKEN: "short", PATH: "/usr/bin/long-path" })).toEqual(["long-enough-value"]);
  });

  it("replaces every known secret value in text and in nested messages, the longest first", () => {
    const redactor = new SecretRedactor(["sk-ant-secret-123456", "sk-ant-secret", undefined, "tiny"]);
    expect(redactor.text("key=sk-ant-secret-123456 and sk-ant-secret")).toBe("key=[REDACTED] and [REDACTED]");
    expect(redactor.deep({ role: "user", content: [{ type: "text", text: "tiny sk-ant-secret" }], count: 3 })).toEqual({ role: "user", content: [{ type: "text", text: "tiny [REDACTED]" }], count: 3 });
  });
});
