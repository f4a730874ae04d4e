/**
 * The environment a child process (command, hook, MCP server) gets: cairn's
 * own, without the variables whose names look like keys, tokens, passwords or
 * secrets, unless the user allows a name. `env` run by the model then has
 * nothing to send anywhere.
 */

/** Anywhere in a name: `PGPASSWORD`, `NPMTOKEN`, `MYSECRET` (a tokenizer setting is no token). */
const secretAnywhere = /PASSWORD|PASSWD|PASSPHRASE|SECRET|CREDENTIAL|TOKEN(?!IZ)|API_?KEY|PRIVATE_?KEY|ACCESS_?KEY/i;
/** As a word of the name (between underscores, or at an end): `STRIPE_KEY`, `MYSQL_PWD`, `SMTP_PASS`, `SENTRY_DSN`. */
const secretWord = /(^|_)(KEY|KEYS|PASS|PWD|AUTH|SESSION|COOKIE|SIGNATURE|DSN|WEBHOOK|PRIVATE)(_|$)/i;
/** Whole families and single names that lead to credentials. */
const secretPrefix = /^(AWS_|AZURE_|GOOGLE_APPLICATION_CREDENTIALS|CLOUDSDK_|GOOGLE_OAUTH_ACCESS_TOKEN|SSH_AUTH_SOCK|GPG_AGENT_INFO|KUBECONFIG|DOCKER_AUTH_CONFIG|NPM_CONFIG__AUTH|VAULT_)/i;
/** Names that look secret but only name a place or a switch. */
const harmless = new Set(["PWD", "OLDPWD", "KEYTIMEOUT", "GPG_TTY", "SSH_TTY", "SSH_CONNECTION", "SSH_CLIENT"]);

export function looksSecret(name: string): boolean {
  return !harmless.has(name) && (secretAnywhere.test(name) || secretWord.test(name) || secretPrefix.test(name));
}

/** A copy of `env` without secret-looking variables except the allowed names. */
export function scrubEnvironment(env: NodeJS.ProcessEnv, allow: readonly string[] = []): NodeJS.ProcessEnv {
  const allowed = new Set(allow);
  const result: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (looksSecret(name) && !allowed.has(name)) continue;
    result[name] = value;
  }
  return result;
}

/** The values of secret-looking variables (at least 8 characters: shorter ones would redact ordinary words). */
export function secretValues(env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= 8 && looksSecret(name)) values.push(value);
  }
  return values;
}
