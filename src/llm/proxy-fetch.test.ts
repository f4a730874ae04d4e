import { describe, expect, it } from "vitest";
import { isLoopbackHost, proxyFetch, proxyVariables } from "./proxy-fetch.js";

describe("which proxy variables apply", () => {
  it("reads lower-case names before upper-case ones, and nothing without a proxy", () => {
    expect(proxyVariables({})).toBeUndefined();
    expect(proxyVariables({ NO_PROXY: "example.com" })).toBeUndefined();
    expect(proxyVariables({ HTTPS_PROXY: "http://upper:1", https_proxy: "http://lower:2", NO_PROXY: "a.example" })).toEqual({
      httpsProxy: "http://lower:2",
      noProxy: "a.example",
    });
    expect(proxyVariables({ HTTP_PROXY: " http://proxy:3128 ", no_proxy: "" })).toEqual({ httpProxy: "http://proxy:3128" });
  });

  it("gives the SDKs no fetch of its own without a proxy, and refuses a proxy that is not a URL", async () => {
    expect(await proxyFetch({})).toBeUndefined();
    expect(typeof (await proxyFetch({ HTTPS_PROXY: "http://127.0.0.1:9" }))).toBe("function");
    await expect(proxyFetch({ HTTP_PROXY: "proxy here" })).rejects.toThrow(/"proxy here" \(HTTPS_PROXY \/ HTTP_PROXY\) is not a URL/);
  });

  it("knows this machine's names", () => {
    for (const host of ["localhost", "api.localhost", "127.0.0.1", "127.1.2.3", "[::1]", "::1"]) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["api.openai.com", "10.0.0.1", "127.example.com", "localhost.example.com"]) expect(isLoopbackHost(host), host).toBe(false);
  });
});
