import { describe, expect, it } from "vitest";
import { looksSecret, scrubEnvironment, secretValues } from "./child-environment.js";
import { SecretRedactor } from "./redaction.js";

describe("child processes get no secrets, and secret values are redacted", () => {
  it("drops variables whose names look like keys, tokens, passwords or secrets, unless allowed", () => {
    const env = {
      PATH: "/usr/bin",
      HOME: "/home/u",
      PWD: "/w",
      ANTHROPIC_API_KEY: "sk-1",
      GITHUB_TOKEN: "t",
      DB_PASSWORD: "p",
      AWS_ACCESS_KEY_ID: "a",
      MY_SECRET: "s",
      SSH_AUTH_SOCK: "/tmp/agent",
      NPM_TOKEN: "n",
      EDITOR: "vi",
    };
    expect(scrubEnvironment(env, ["NPM_TOKEN"])).toEqual({ PATH: "/usr/bin", HOME: "/home/u", PWD: "/w", NPM_TOKEN: "n", EDITOR: "vi" });
    expect(["KEYBOARD", "MONKEY", "TOKENIZERS_PARALLELISM"].map(looksSecret)).toEqual([false, false, false]);
    expect(secretValues({ A_TOKEN: "long-enough-value", B_TOKEN: "short", PATH: "/usr/bin/long-path" })).toEqual(["long-enough-value"]);
  });

  // What docs/security.md promises: names containing PASSWORD, PASSWD, SECRET, TOKEN or CREDENTIAL anywhere;
  // KEY, KEYS, PASS, PWD, AUTH ... as a word of the name; AWS_*, SSH_AUTH_SOCK ...; never PWD or OLDPWD.
  const secretNames = [
    "PGPASSWORD",
    "MYSQL_PWD",
    "DB_PASSWORD",
    "MYPASSWORD",
    "REDIS_PASSWD",
    "PASSWD",
    "SMTP_PASS",
    "GPG_PASSPHRASE",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "NPMTOKEN",
    "CI_JOB_TOKEN",
    "HF_TOKEN",
    "github_token",
    "CLIENT_SECRET",
    "SECRETKEY",
    "MYSECRET",
    "JWT_SECRET_BASE",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AZURE_CREDENTIALS",
    "DOCKERCREDENTIAL",
    "CREDENTIALS_FILE",
    "ANTHROPIC_API_KEY",
    "OPENAI_APIKEY",
    "STRIPE_KEY",
    "SIGNING_KEYS",
    "PRIVATE_KEY_PEM",
    "KEY",
    "SENTRY_DSN",
    "SLACK_WEBHOOK_URL",
    "BASIC_AUTH",
    "SESSION_COOKIE",
    "AWS_ACCESS_KEY_ID",
    "AWS_SESSION_TOKEN",
    "SSH_AUTH_SOCK",
    "KUBECONFIG",
    "VAULT_ADDR",
    "NPM_CONFIG__AUTH",
  ];
  const ordinaryNames = [
    "PATH",
    "HOME",
    "PWD",
    "OLDPWD",
    "EDITOR",
    "KEYBOARD",
    "MONKEY",
    "KEYTIMEOUT",
    "TOKENIZERS_PARALLELISM",
    "LANG",
    "TERM",
    "SHELL",
    "USER",
    "GPG_TTY",
    "SSH_TTY",
    "SSH_CONNECTION",
    "NODE_OPTIONS",
    "PASSENGER_ENV",
    "COMPASS_HOME",
    "HOSTNAME",
    "DISPLAY",
  ];
  it.each(secretNames)("%s is a secret name: scrubbed from children, its value redacted", (name) => {
    expect(looksSecret(name)).toBe(true);
    expect(scrubEnvironment({ [name]: "value-of-the-secret", PATH: "/usr/bin" })).toEqual({ PATH: "/usr/bin" });
    expect(secretValues({ [name]: "value-of-the-secret" })).toEqual(["value-of-the-secret"]);
  });
  it.each(ordinaryNames)("%s is an ordinary name: children get it", (name) => {
    expect(looksSecret(name)).toBe(false);
    expect(scrubEnvironment({ [name]: "ordinary-value" })).toEqual({ [name]: "ordinary-value" });
  });

  it("replaces every known secret value in text and in nested messages, the longest first", () => {
    const redactor = new SecretRedactor(["sk-ant-secret-123456", "sk-ant-secret", undefined, "tiny"]);
    expect(redactor.text("key=sk-ant-secret-123456 and sk-ant-secret")).toBe("key=[REDACTED] and [REDACTED]");
    expect(redactor.deep({ role: "user", content: [{ type: "text", text: "tiny sk-ant-secret" }], count: 3 })).toEqual({ role: "user", content: [{ type: "text", text: "tiny [REDACTED]" }], count: 3 });
  });
});
