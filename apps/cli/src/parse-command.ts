import { parseArgs } from "node:util";
import { adminLimits, parseDurationSeconds, reservationStates } from "@hub/admin/input-rules";
import type { AdminRequest } from "./admin-request.js";
import { UsageError } from "./usage-error.js";

export type Command =
  | { kind: "help"; text: string }
  | { kind: "migrate"; json: boolean }
  | { kind: "doctor"; url: string | undefined; json: boolean }
  | { kind: "admin"; request: AdminRequest; json: boolean };

type Values = Record<string, string | string[] | boolean | undefined>;

interface VerbSpec {
  usage: string;
  options: Record<string, { type: "string" | "boolean"; multiple?: boolean }>;
  positionals: number;
  build(values: Values, positionals: string[], fail: (message: string) => never): AdminRequest;
}

const ENVIRONMENT = `Environment:
  HUB_DATA_DIR   data dir of the embedded database (default .data)
  DATABASE_URL   PostgreSQL server; when set, the data dir's database is not used
  DASHBOARD_PUBLIC_ORIGIN, DASHBOARD_PORT
                 where invite links point: that origin, else the running stack's dashboardUrl
                 (dev.json), else http://127.0.0.1:DASHBOARD_PORT (8081)`;

export const TOP_USAGE = `Usage: hub <command> [options]

Commands:
  start                                              run the full local stack (what npm start runs)
  migrate [--json]                                   apply pending database migrations
  doctor [--url URL] [--json]                        what the running stack's /readyz says, check by check
  admin org create --name NAME                       create an organization
  admin org list [--limit N] [--after ORG]           list organizations, oldest first
  admin org show ORG                                 show an organization and its project
  admin project create --org ORG [--origin URL]...   create the organization's project
  admin project origins --project P --origin URL...  replace a project's allowed origins
  admin project show P                               show a project
  admin key create --org ORG [--expires DURATION] [--label TEXT]
                                                     create an API key (shown once)
  admin key revoke KEY_ID                            revoke an API key
  admin key list --org ORG                           list an organization's keys
  admin member invite --org ORG --email E            a one-time dashboard sign-in link for a member (24 h)
  admin operator invite --email E                    a one-time dashboard sign-in link for an operator (24 h)
  admin reservations list [--state S] [--org ORG]    list submission reservations, oldest first
  admin reservations reconcile HUB_ORDER_ID (--opened ONCHAIN_ORDER_ID | --not-opened) [--note TEXT]
                                                     settle a reservation whose outcome is unknown
  admin usage --org ORG [--hours N]                  an organization's calls per hour (last 24 h)
  admin audit list [--org ORG] [--limit N] [--after ID]  the admin actions, newest first

Every admin verb takes --json and then prints exactly one JSON object.
Exit codes: 0 done, 1 refused or failed, 2 bad arguments.
"hub <command> --help" shows one command.

${ENVIRONMENT}`;

const ADMIN_USAGE = `Usage: hub admin <org|project|key|member|operator|reservations|usage|audit> <verb> [options] [--json]

  org create --name NAME | org list [--limit N] [--after ORG] | org show ORG
  project create --org ORG [--origin URL]... | project origins --project P --origin URL... | project show P
  key create --org ORG [--expires DURATION] [--label TEXT] | key revoke KEY_ID | key list --org ORG
  member invite --org ORG --email E | operator invite --email E
  reservations list [--state S] [--org ORG] | reservations reconcile HUB_ORDER_ID (--opened ID | --not-opened) [--note TEXT]
  usage --org ORG [--hours N] | audit list [--org ORG] [--limit N] [--after ID]

A change is in force at the gateway within 2 seconds.

${ENVIRONMENT}`;

const MIGRATE_USAGE = `Usage: hub migrate [--json]

Applies the pending numbered migrations (packages/store/migrations) to the database, each in its own
transaction. Safe to run while other processes start: they wait for each other.

${ENVIRONMENT}`;

const DOCTOR_USAGE = `Usage: hub doctor [--url URL] [--json]

Reads the running stack's readiness (GET /readyz on its operator listener) and prints every check:
the database, Redis when configured, each upstream, each chain's RPC and the reconciler's lag.
--url: the operator listener (default http://127.0.0.1:$METRICS_PORT, 9090).
Exit codes: 0 ready, 1 not ready, stopping or unreachable, 2 bad arguments.`;

const ORIGIN_HELP = `An origin is exact: http or https, host, optional port, no path, no wildcard
(e.g. https://app.example.com, http://127.0.0.1:5173). Default ports are dropped.`;

const json = { type: "boolean" } as const;
const text = { type: "string" } as const;

const VERBS: Record<string, VerbSpec> = {
  "org create": {
    usage: "Usage: hub admin org create --name NAME [--json]",
    options: { name: text, json },
    positionals: 0,
    build: (values, _, fail) => ({ verb: "org.create", name: required(values, "name", fail) }),
  },
  "org list": {
    usage: `Usage: hub admin org list [--limit N] [--after ORG_ID] [--json]\n\nOldest first, 100 a page by default (at most ${adminLimits.maxOrganizationPage}); --after takes the last id of the previous page.`,
    options: { limit: text, after: text, json },
    positionals: 0,
    build(values, _, fail) {
      const request: AdminRequest = { verb: "org.list" };
      if (typeof values.limit === "string") {
        const most = adminLimits.maxOrganizationPage;
        if (!/^[1-9][0-9]*$/.test(values.limit) || Number(values.limit) > most) {
          fail(`--limit must be a whole number from 1 to ${most}`);
        }
        request.limit = Number(values.limit);
      }
      if (typeof values.after === "string") request.after = values.after;
      return request;
    },
  },
  "org show": {
    usage: "Usage: hub admin org show ORG_ID [--json]",
    options: { json },
    positionals: 1,
    build: (_, positionals) => ({ verb: "org.show", orgId: positionals[0]! }),
  },
  "project create": {
    usage: `Usage: hub admin project create --org ORG_ID [--origin URL]... [--json]\n\nOne project per organization; its id is the public x-project-id.\n${ORIGIN_HELP}`,
    options: { org: text, origin: { type: "string", multiple: true }, json },
    positionals: 0,
    build: (values, _, fail) => ({
      verb: "project.create",
      orgId: required(values, "org", fail),
      origins: (values.origin as string[] | undefined) ?? [],
    }),
  },
  "project origins": {
    usage: `Usage: hub admin project origins --project PROJECT_ID --origin URL... [--json]\n\nReplaces the whole list with the origins given.\n${ORIGIN_HELP}`,
    options: { project: text, origin: { type: "string", multiple: true }, json },
    positionals: 0,
    build(values, _, fail) {
      const origins = (values.origin as string[] | undefined) ?? [];
      if (origins.length === 0) fail("give at least one --origin (the list is replaced by exactly these)");
      return { verb: "project.origins", projectId: required(values, "project", fail), origins };
    },
  },
  "project show": {
    usage: "Usage: hub admin project show PROJECT_ID [--json]",
    options: { json },
    positionals: 1,
    build: (_, positionals) => ({ verb: "project.show", projectId: positionals[0]! }),
  },
  "key create": {
    usage:
      "Usage: hub admin key create --org ORG_ID [--expires DURATION] [--label TEXT] [--json]\n\nDURATION is a number and a unit: 45s, 90m, 12h, 30d. Without it the key does not expire.\nLABEL names the key in the dashboard (1 to 100 characters).\nThe key is printed once and stored only as its SHA-256.",
    options: { org: text, expires: text, label: text, json },
    positionals: 0,
    build(values, _, fail) {
      const request: AdminRequest = { verb: "key.create", orgId: required(values, "org", fail) };
      if (typeof values.expires === "string") {
        const seconds = parseDurationSeconds(values.expires);
        if (seconds === undefined)
          fail(`--expires ${values.expires}: write a number and a unit, e.g. 30d, 12h, 90m, 45s`);
        request.expiresInSeconds = seconds;
      }
      if (typeof values.label === "string") request.label = values.label;
      return request;
    },
  },
  "key revoke": {
    usage:
      "Usage: hub admin key revoke KEY_ID [--json]\n\nRefused at the gateway within 2 seconds. Revoking twice keeps the first time.",
    options: { json },
    positionals: 1,
    build: (_, positionals) => ({ verb: "key.revoke", keyId: positionals[0]! }),
  },
  "key list": {
    usage:
      "Usage: hub admin key list --org ORG_ID [--json]\n\nShows ids, display prefixes and states; never a key itself.",
    options: { org: text, json },
    positionals: 0,
    build: (values, _, fail) => ({ verb: "key.list", orgId: required(values, "org", fail) }),
  },
};

VERBS["member invite"] = {
  usage:
    "Usage: hub admin member invite --org ORG_ID --email EMAIL [--json]\n\nMakes the member's dashboard account (on the first invite) and prints a one-time sign-in link,\nvalid 24 hours: the member sets a password on first use.",
  options: { org: text, email: text, json },
  positionals: 0,
  build: (values, _, fail) => ({
    verb: "member.invite",
    orgId: required(values, "org", fail),
    email: required(values, "email", fail),
  }),
};

VERBS["operator invite"] = {
  usage:
    "Usage: hub admin operator invite --email EMAIL [--json]\n\nMakes an operator's dashboard account (on the first invite) and prints a one-time sign-in link,\nvalid 24 hours.",
  options: { email: text, json },
  positionals: 0,
  build: (values, _, fail) => ({ verb: "operator.invite", email: required(values, "email", fail) }),
};

VERBS["reservations list"] = {
  usage: `Usage: hub admin reservations list [--state ${reservationStates.join("|")}] [--org ORG_ID] [--json]\n\nSubmission reservations, oldest first (at most ${adminLimits.maxReservationPage}). forwarding and unknown ones answer EIN0052 to\nevery re-post until reconciled.`,
  options: { state: text, org: text, json },
  positionals: 0,
  build(values, _, fail) {
    const request: AdminRequest = { verb: "reservations.list" };
    if (typeof values.state === "string") {
      const state = reservationStates.find((candidate) => candidate === values.state);
      if (!state) fail(`--state must be one of ${reservationStates.join(", ")}`);
      request.state = state;
    }
    if (typeof values.org === "string") request.orgId = values.org;
    return request;
  },
};

VERBS["reservations reconcile"] = {
  usage:
    "Usage: hub admin reservations reconcile HUB_ORDER_ID (--opened ONCHAIN_ORDER_ID | --not-opened) [--note TEXT] [--json]\n\nSettles a forwarding or unknown reservation once the facts are checked (the order's Open on chain,\nthe upstream's order). --opened acks it with that on-chain id: re-posts get the ack and the status read\nanswers. --not-opened releases it: the next re-post forwards again. The recorded chain facts are checked first.",
  options: { opened: text, "not-opened": { type: "boolean" }, note: text, json },
  positionals: 1,
  build(values, positionals, fail) {
    const opened = typeof values.opened === "string" ? values.opened : undefined;
    const notOpened = values["not-opened"] === true;
    if ((opened === undefined) === !notOpened)
      fail("give exactly one of --opened ONCHAIN_ORDER_ID and --not-opened");
    return {
      verb: "reservations.reconcile",
      hubOrderId: positionals[0]!,
      opened: opened ?? null,
      ...(typeof values.note === "string" ? { note: values.note } : {}),
    };
  },
};

VERBS.usage = {
  usage: `Usage: hub admin usage --org ORG_ID [--hours N] [--json]\n\nThe organization's calls per hour as the gateways counted them (written once a minute): requests by\ncredential kind, refusals by code and lockouts; the last 24 hours by default (at most ${adminLimits.maxUsageHours}).`,
  options: { org: text, hours: text, json },
  positionals: 0,
  build(values, _, fail) {
    const request: AdminRequest = { verb: "usage", orgId: required(values, "org", fail) };
    if (typeof values.hours === "string") {
      const most = adminLimits.maxUsageHours;
      if (!/^[1-9][0-9]*$/.test(values.hours) || Number(values.hours) > most) {
        fail(`--hours must be a whole number from 1 to ${most}`);
      }
      request.hours = Number(values.hours);
    }
    return request;
  },
};

VERBS["audit list"] = {
  usage: `Usage: hub admin audit list [--org ORG_ID] [--limit N] [--after ID] [--json]\n\nEvery admin action that changed something (who, when, what, from the CLI or the dashboard), newest\nfirst, 50 a page by default (at most ${adminLimits.maxAuditPage}); --after takes the last id of the previous page.`,
  options: { org: text, limit: text, after: text, json },
  positionals: 0,
  build(values, _, fail) {
    const request: AdminRequest = { verb: "audit.list" };
    if (typeof values.limit === "string") {
      const most = adminLimits.maxAuditPage;
      if (!/^[1-9][0-9]*$/.test(values.limit) || Number(values.limit) > most) {
        fail(`--limit must be a whole number from 1 to ${most}`);
      }
      request.limit = Number(values.limit);
    }
    if (typeof values.org === "string") request.orgId = values.org;
    if (typeof values.after === "string") request.after = values.after;
    return request;
  },
};

function required(values: Values, name: string, fail: (message: string) => never): string {
  const value = values[name];
  if (typeof value !== "string" || value.length === 0) fail(`--${name} is required`);
  return value as string;
}

const isHelp = (arg: string) => arg === "--help" || arg === "-h";

/** Turns argv (after `hub`) into a command; throws UsageError on bad arguments. */
export function parseCommand(argv: readonly string[]): Command {
  const [command, ...rest] = argv;
  if (command === undefined || isHelp(command) || command === "help")
    return { kind: "help", text: TOP_USAGE };
  if (command === "migrate") {
    if (rest.some(isHelp)) return { kind: "help", text: MIGRATE_USAGE };
    const unknown = rest.find((arg) => arg !== "--json");
    if (unknown !== undefined) throw new UsageError(`unknown argument ${unknown}`, MIGRATE_USAGE);
    return { kind: "migrate", json: rest.includes("--json") };
  }
  if (command === "doctor") {
    if (rest.some(isHelp)) return { kind: "help", text: DOCTOR_USAGE };
    let values: Values;
    try {
      ({ values } = parseArgs({ args: rest, options: { url: text, json }, strict: true }));
    } catch (error) {
      throw new UsageError((error as Error).message, DOCTOR_USAGE);
    }
    const url = typeof values.url === "string" ? values.url : undefined;
    if (url !== undefined && !URL.canParse(url))
      throw new UsageError(`--url ${url} is not a URL`, DOCTOR_USAGE);
    return { kind: "doctor", url, json: values.json === true };
  }
  if (command !== "admin") throw new UsageError(`unknown command ${command}`, TOP_USAGE);

  const [resource, verb] = rest;
  if (resource === undefined || isHelp(resource)) return { kind: "help", text: ADMIN_USAGE };
  // A resource that is its own verb (`hub admin usage`) takes every argument after it.
  const single = Object.hasOwn(VERBS, resource) ? VERBS[resource] : undefined;
  const spec = single ?? VERBS[`${resource} ${verb}`];
  const args = rest.slice(single ? 1 : 2);
  if (spec === undefined) {
    const known = Object.keys(VERBS).some((name) => name.startsWith(`${resource} `));
    if (known && verb !== undefined && isHelp(verb)) return { kind: "help", text: ADMIN_USAGE };
    if (known && verb === undefined)
      throw new UsageError(`hub admin ${resource}: a verb is missing`, ADMIN_USAGE);
    throw new UsageError(`unknown admin verb: ${[resource, verb].filter(Boolean).join(" ")}`, ADMIN_USAGE);
  }
  if (args.some(isHelp)) return { kind: "help", text: spec.usage };
  const fail = (message: string): never => {
    throw new UsageError(message, spec.usage);
  };
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: spec.options,
      allowPositionals: true,
      strict: true,
    }) as typeof parsed;
  } catch (error) {
    return fail((error as Error).message);
  }
  if (parsed.positionals.length !== spec.positionals) {
    fail(
      spec.positionals === 0
        ? `unexpected argument ${parsed.positionals[0]}`
        : parsed.positionals.length === 0
          ? "missing argument"
          : `unexpected argument ${parsed.positionals[spec.positionals]}`,
    );
  }
  return {
    kind: "admin",
    request: spec.build(parsed.values, parsed.positionals, fail),
    json: parsed.values.json === true,
  };
}
