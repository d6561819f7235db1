import assert from "node:assert/strict";
import { test } from "node:test";
import { matchRoute, routeTable } from "../src/index.js";

/** The route table read literally: each path a regex, `{name}` one segment, the first match in table order. */
function matchByPattern(method: string, path: string): { operationId: string; params: unknown } | undefined {
  for (const route of routeTable) {
    if (route.method !== method) continue;
    const names = [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1] as string);
    const m = new RegExp(`^${route.path.replace(/\{[A-Za-z]+\}/g, "([^/]+)")}$`).exec(path);
    if (!m) continue;
    return {
      operationId: route.operationId,
      params: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(m[i + 1] as string)])),
    };
  }
  return undefined;
}

test("matchRoute names the route and parameters the route table's patterns name, for every route and near miss", () => {
  const paths = new Set<string>();
  for (const route of routeTable) {
    const path = route.path.replace(/\{[A-Za-z]+\}/g, "a%20b");
    for (const variant of [path, `${path}/`, `/${path}`, path.toUpperCase(), path.slice(0, -1), `${path}x`])
      paths.add(variant);
  }
  for (const extra of [
    "",
    "/",
    "/openapiXyaml",
    "/order/openfor/status",
    "/orders/x",
    "/quote/",
    "/catalog?x",
  ])
    paths.add(extra);
  for (const method of ["GET", "POST", "PUT", "get"]) {
    for (const path of paths) {
      const matched = matchRoute(method, path);
      const expected = matchByPattern(method, path);
      assert.deepEqual(
        matched && { operationId: matched.route.operationId, params: matched.params },
        expected,
        `${method} ${path}`,
      );
    }
  }
});
