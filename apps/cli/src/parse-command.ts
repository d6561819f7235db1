import { parseArgs } from "node:util";
import type { AdminRequest } from "./admin-request.js";
import { type AdminVerbSpec, adminVerbs, type OptionValues } from "./admin-verbs.js";
import { ADMIN_USAGE, DOCTOR_USAGE, MIGRATE_USAGE, TOP_USAGE } from "./command-usage.js";
import { parseRoles } from "./stack-roles.js";
import { UsageError } from "./usage-error.js";

export { TOP_USAGE } from "./command-usage.js";

export type Command =
  | { kind: "help"; text: string }
  | { kind: "migrate"; json: boolean }
  | { kind: "doctor"; url: string | undefined; json: boolean }
  | { kind: "doctor-settings"; only: string | undefined; json: boolean }
  | { kind: "admin"; request: AdminRequest; json: boolean };

const isHelp = (arg: string) => arg === "--help" || arg === "-h";

/** Turns argv (after `hub`) into a command; throws UsageError on bad arguments. */
export function parseCommand(argv: readonly string[]): Command {
  const [command, ...rest] = argv;
  if (command === undefined || isHelp(command) || command === "help")
    return { kind: "help", text: TOP_USAGE };
  if (command === "migrate") return parseMigrate(rest);
  if (command === "doctor") return parseDoctor(rest);
  if (command !== "admin") throw new UsageError(`unknown command ${command}`, TOP_USAGE);
  return parseAdmin(rest);
}

function parseMigrate(rest: string[]): Command {
  if (rest.some(isHelp)) return { kind: "help", text: MIGRATE_USAGE };
  const unknown = rest.find((arg) => arg !== "--json");
  if (unknown !== undefined) throw new UsageError(`unknown argument ${unknown}`, MIGRATE_USAGE);
  return { kind: "migrate", json: rest.includes("--json") };
}

function parseDoctor(rest: string[]): Command {
  if (rest.some(isHelp)) return { kind: "help", text: DOCTOR_USAGE };
  let values: OptionValues;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        url: { type: "string" },
        json: { type: "boolean" },
        settings: { type: "boolean" },
        only: { type: "string" },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, DOCTOR_USAGE);
  }
  if (values.settings === true) {
    if (values.url !== undefined) throw new UsageError("--settings reads no --url", DOCTOR_USAGE);
    const only = typeof values.only === "string" ? values.only : undefined;
    try {
      parseRoles(only);
    } catch (error) {
      throw new UsageError((error as Error).message, DOCTOR_USAGE);
    }
    return { kind: "doctor-settings", only, json: values.json === true };
  }
  if (values.only !== undefined) throw new UsageError("--only goes with --settings", DOCTOR_USAGE);
  const url = typeof values.url === "string" ? values.url : undefined;
  if (url !== undefined && !URL.canParse(url))
    throw new UsageError(`--url ${url} is not a URL`, DOCTOR_USAGE);
  return { kind: "doctor", url, json: values.json === true };
}

function parseAdmin(rest: string[]): Command {
  const [resource, verb] = rest;
  if (resource === undefined || isHelp(resource)) return { kind: "help", text: ADMIN_USAGE };
  // A resource that is its own verb (`hub admin usage`) takes every argument after it.
  const single = Object.hasOwn(adminVerbs, resource) ? adminVerbs[resource] : undefined;
  const spec = single ?? adminVerbs[`${resource} ${verb}`];
  const args = rest.slice(single ? 1 : 2);
  if (spec === undefined) {
    const known = Object.keys(adminVerbs).some((name) => name.startsWith(`${resource} `));
    if (known && verb !== undefined && isHelp(verb)) return { kind: "help", text: ADMIN_USAGE };
    if (known && verb === undefined)
      throw new UsageError(`hub admin ${resource}: a verb is missing`, ADMIN_USAGE);
    throw new UsageError(`unknown admin verb: ${[resource, verb].filter(Boolean).join(" ")}`, ADMIN_USAGE);
  }
  if (args.some(isHelp)) return { kind: "help", text: spec.usage };
  return parseAdminVerb(spec, args);
}

function parseAdminVerb(spec: AdminVerbSpec, args: string[]): Command {
  const fail = (message: string): never => {
    throw new UsageError(message, spec.usage);
  };
  let parsed: { values: OptionValues; positionals: string[] };
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
