/** Which credentials may call a route. */
export type RouteAccess = "public" | "key-or-project" | "key-only";

/** How long the gateway waits for the hub on a route before answering EPX0052. */
export type TimeoutClass = "quote" | "default";

/** One route of the API as the spec's route table lists it. */
export interface RouteDefinition {
  readonly operationId: string;
  readonly method: "GET" | "POST";
  /** Path after the /v1 prefix, with `{name}` path parameters. */
  readonly path: string;
  readonly access: RouteAccess;
  readonly subjectRequired: boolean;
  /** True where the spec lets the query string reach the hub (GET /orders and the refund route). */
  readonly forwardsQuery: boolean;
  readonly timeoutClass: TimeoutClass;
  /** True on routes that read a JSON body (every POST). */
  readonly readsBody: boolean;
  /** The hub rate bucket the route is charged to, if any. */
  readonly bucket?: "quote" | "order";
}

/** The API's version prefix; every route lives under it. */
export const API_PREFIX = "/v1";

/** Every route, in the spec's route-table order, then the raw order tuple view the spec leaves unnamed. */
export const routeTable = [
  {
    operationId: "getCatalog",
    method: "GET",
    path: "/catalog",
    access: "key-or-project",
    subjectRequired: false,
    forwardsQuery: false,
    timeoutClass: "default",
    readsBody: false,
  },
  {
    operationId: "getOpenapi",
    method: "GET",
    path: "/openapi.yaml",
    access: "public",
    subjectRequired: false,
    forwardsQuery: false,
    timeoutClass: "default",
    readsBody: false,
  },
  {
    operationId: "createQuote",
    method: "POST",
    path: "/quote",
    access: "key-or-project",
    subjectRequired: true,
    forwardsQuery: false,
    timeoutClass: "quote",
    readsBody: true,
    bucket: "quote",
  },
  {
    operationId: "previewQuote",
    method: "POST",
    path: "/quote/preview",
    access: "key-or-project",
    subjectRequired: true,
    forwardsQuery: false,
    timeoutClass: "quote",
    readsBody: true,
    bucket: "quote",
  },
  {
    operationId: "prepareQuote",
    method: "POST",
    path: "/quote/prepare",
    access: "key-or-project",
    subjectRequired: true,
    forwardsQuery: false,
    timeoutClass: "quote",
    readsBody: true,
    bucket: "quote",
  },
  {
    operationId: "submitOpenForOrder",
    method: "POST",
    path: "/order/openfor",
    access: "key-or-project",
    subjectRequired: true,
    forwardsQuery: false,
    timeoutClass: "default",
    readsBody: true,
    bucket: "order",
  },
  {
    operationId: "createOrder",
    method: "POST",
    path: "/order",
    access: "key-or-project",
    subjectRequired: true,
    forwardsQuery: false,
    timeoutClass: "default",
    readsBody: true,
    bucket: "order",
  },
  {
    operationId: "getOrderStatus",
    method: "GET",
    path: "/order/{orderId}/status",
    access: "key-or-project",
    subjectRequired: true,
    forwardsQuery: false,
    timeoutClass: "default",
    readsBody: false,
  },
  {
    operationId: "getHubStatus",
    method: "GET",
    path: "/status/{orderId}",
    access: "key-or-project",
    subjectRequired: false,
    forwardsQuery: false,
    timeoutClass: "default",
    readsBody: false,
  },
  {
    operationId: "listOrders",
    method: "GET",
    path: "/orders",
    access: "key-only",
    subjectRequired: true,
    forwardsQuery: true,
    timeoutClass: "default",
    readsBody: false,
  },
  {
    operationId: "getOnchainFill",
    method: "GET",
    path: "/onchain/{orderId}/fill",
    access: "key-or-project",
    subjectRequired: false,
    forwardsQuery: false,
    timeoutClass: "default",
    readsBody: false,
  },
  {
    operationId: "getOrderByTransaction",
    method: "GET",
    path: "/onchain/tx/{chainDomain}/{txHash}/order",
    access: "key-or-project",
    subjectRequired: false,
    forwardsQuery: false,
    timeoutClass: "default",
    readsBody: false,
  },
  {
    operationId: "getOnchainRefund",
    method: "GET",
    path: "/onchain/{orderId}/refund",
    access: "key-or-project",
    subjectRequired: false,
    forwardsQuery: true,
    timeoutClass: "default",
    readsBody: false,
  },
  {
    operationId: "getOnchainOrder",
    method: "GET",
    path: "/onchain/{orderId}/order",
    access: "key-or-project",
    subjectRequired: false,
    forwardsQuery: false,
    timeoutClass: "default",
    readsBody: false,
  },
] as const satisfies readonly RouteDefinition[];

/** One of the route table's operation ids. */
export type OperationId = (typeof routeTable)[number]["operationId"];

const compiled = routeTable.map((route) => ({
  route: route as RouteDefinition,
  // A path of letters, digits, '_', '-' and '/' matches only itself: compared as a string, not by its regex.
  literal: /^[\w/-]*$/.test(route.path) ? route.path : undefined,
  pattern: new RegExp(`^${route.path.replace(/\{[A-Za-z]+\}/g, "([^/]+)")}$`),
  names: [...route.path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1] as string),
}));

/** A route a call names: its line of the route table and its path parameters, decoded. */
export interface RouteMatch {
  readonly route: RouteDefinition;
  readonly params: Record<string, string>;
}

/** The route a method and a path (after /v1, without query) name, with its path parameters; undefined when none. */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  for (const { route, literal, pattern, names } of compiled) {
    if (route.method !== method) continue;
    if (literal !== undefined) {
      if (literal === path) return { route, params: {} };
      continue;
    }
    const m = pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < names.length; i++) {
      const raw = m[i + 1] as string;
      // Only a '%' can make decodeURIComponent change the text or throw.
      params[names[i] as string] = raw.includes("%") ? decodeURIComponent(raw) : raw;
    }
    return { route, params };
  }
  return undefined;
}

/** True when some route has this path under another method (the gateway still answers EPX0004). */
export function pathExists(path: string): boolean {
  return compiled.some(({ pattern }) => pattern.test(path));
}
