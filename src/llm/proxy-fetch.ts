/**
 * Requests through a company proxy (#20 item 4). Node 20's fetch ignores HTTPS_PROXY,
 * HTTP_PROXY and NO_PROXY; when one of the proxy variables is set, every provider SDK is given
 * undici's fetch with an EnvHttpProxyAgent, which reads them as curl does (lower-case names
 * first). NODE_EXTRA_CA_CERTS needs nothing here: Node adds it to the default CA store at start-up,
 * which undici's TLS connections (to the proxy and through its tunnel) use. Servers on this
 * machine (Ollama, LM Studio, cairn's scripted server) are always reached directly, as Go and
 * most proxies' clients do: a company proxy cannot reach them.
 */
export interface ProxyVariables {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

function firstSet(environment: Record<string, string | undefined>, names: string[]): string | undefined {
  for (const name of names) {
    const value = environment[name];
    if (value !== undefined && value.trim() !== "") return value.trim();
  }
  return undefined;
}

/** The proxy variables in `environment`, or undefined when no proxy is configured. */
export function proxyVariables(environment: Record<string, string | undefined>): ProxyVariables | undefined {
  const httpProxy = firstSet(environment, ["http_proxy", "HTTP_PROXY"]);
  const httpsProxy = firstSet(environment, ["https_proxy", "HTTPS_PROXY"]);
  if (httpProxy === undefined && httpsProxy === undefined) return undefined;
  const noProxy = firstSet(environment, ["no_proxy", "NO_PROXY"]);
  return {
    ...(httpProxy === undefined ? {} : { httpProxy }),
    ...(httpsProxy === undefined ? {} : { httpsProxy }),
    ...(noProxy === undefined ? {} : { noProxy }),
  };
}

/** localhost, *.localhost, 127.x.x.x and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

function hostOf(input: unknown): string | undefined {
  const text = typeof input === "string" ? input : input instanceof URL ? input.href : (input as { url?: unknown } | null)?.url;
  return typeof text === "string" && URL.canParse(text) ? new URL(text).hostname : undefined;
}

/**
 * A fetch for the SDKs that goes through the configured proxy; undefined without one (the SDKs
 * then use the global fetch, and undici is never loaded). A proxy URL that is not a URL is an error
 * the user sees at once, naming the variable's value.
 */
export async function proxyFetch(environment: Record<string, string | undefined>): Promise<typeof fetch | undefined> {
  const variables = proxyVariables(environment);
  if (variables === undefined) return undefined;
  for (const url of [variables.httpProxy, variables.httpsProxy]) {
    if (url !== undefined && !URL.canParse(url)) throw new Error(`the proxy address "${url}" (HTTPS_PROXY / HTTP_PROXY) is not a URL, e.g. http://proxy.example:3128`);
  }
  const { EnvHttpProxyAgent, fetch: undiciFetch } = await import("undici");
  const dispatcher = new EnvHttpProxyAgent(variables);
  const proxied = (input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) => {
    const host = hostOf(input);
    return host !== undefined && isLoopbackHost(host) ? undiciFetch(input, init) : undiciFetch(input, { ...init, dispatcher });
  };
  // undici's fetch and Node's are the same implementation; only the type declarations differ.
  return proxied as unknown as typeof fetch;
}
