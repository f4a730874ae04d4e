import { describe, expect, it } from "vitest";
import { apiRoutes } from "./api-routes.js";
import { openApiDocument } from "./openapi.js";

/** `^/api/tasks/([^/]+)/answer$` as OpenAPI writes it: `/api/tasks/{id}/answer`. */
function templateOf(pattern: RegExp): string {
  return pattern.source.replace(/^\^/, "").replace(/\$$/, "").replaceAll("([^/]+)", "{id}").replaceAll("\\/", "/");
}

describe("the OpenAPI description", () => {
  it("describes every route the server answers, with its method, and no route it does not", () => {
    const served = apiRoutes.map((route) => `${route.method.toLowerCase()} ${templateOf(route.pattern)}`).sort();
    const described = Object.entries(openApiDocument.paths)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
      .filter((entry) => !entry.endsWith("/api/fleet") && !entry.endsWith("/api/openapi.json"))
      .sort();
    expect(described).toEqual(served);
  });
});
