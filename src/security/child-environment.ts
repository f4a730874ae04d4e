/**
 * The environment a child process (command, hook, MCP server) gets: cairn's
 * own, without the variables whose names look like keys, tokens, passwords or
 * secrets, unless the user allows a name. `env` run by the model then has
 * nothing to send anywhere.
 */

const secretName = /(^|_)(API_?KEY|KEY|KEYS|TOKEN|TOKENS|SECRET|SECRETS|PASSWORD|PASSWD|PASS|PWD_HASH|CREDENTIAL|CREDENTIALS|PRIVATE|AUTH|SESSION|COOKIE|SIGNATURE|DSN|WEBHOOK)(_|$)|^(AWS_|AZURE_|GOOGLE_APPLICATION_CREDENTIALS|SSH_AUTH_SOCK|GPG_AGENT_INFO|KUBECONFIG|DOCKER_AUTH_CONFIG|NPM_CONFIG__AUTH|VAULT_)/i;
/** Names that look secret but only name a place or a switch. */
const harmless = new Set(["PWD", "OLDPWD", "KEYTIMEOUT", "GPG_TTY", "SSH_TTY", "SSH_CONNECTION", "SSH_CLIENT"]);

export function looksSecret(name: string): boolean {
  return !harmless.has(name) && secretName.test(name);
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
