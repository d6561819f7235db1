import { adminLimits, parseDurationSeconds, reservationStates } from "@hub/admin/input-rules";
import type { AdminRequest } from "./admin-request.js";
import { ORIGIN_HELP } from "./command-usage.js";

export type OptionValues = Record<string, string | string[] | boolean | undefined>;

/** One admin verb: its help, the options parseArgs takes, and how its arguments become a request. */
export interface AdminVerbSpec {
  usage: string;
  options: Record<string, { type: "string" | "boolean"; multiple?: boolean }>;
  positionals: number;
  build(values: OptionValues, positionals: string[], fail: (message: string) => never): AdminRequest;
}

const json = { type: "boolean" } as const;
const text = { type: "string" } as const;

export const adminVerbs: Record<string, AdminVerbSpec> = {
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
  "key disable": {
    usage:
      "Usage: hub admin key disable KEY_ID [--json]\n\nRefused at the gateway (EPX0002, as a revoked key) within 2 seconds, until enabled again\nwith hub admin key enable. A revoked key can be neither disabled nor enabled.",
    options: { json },
    positionals: 1,
    build: (_, positionals) => ({ verb: "key.disable", keyId: positionals[0] as string }),
  },
  "key enable": {
    usage:
      "Usage: hub admin key enable KEY_ID [--json]\n\nA disabled key works again at the gateway within 2 seconds.",
    options: { json },
    positionals: 1,
    build: (_, positionals) => ({ verb: "key.enable", keyId: positionals[0] as string }),
  },
  "key list": {
    usage:
      "Usage: hub admin key list --org ORG_ID [--json]\n\nShows ids, display prefixes and states; never a key itself.",
    options: { org: text, json },
    positionals: 0,
    build: (values, _, fail) => ({ verb: "key.list", orgId: required(values, "org", fail) }),
  },

  "member invite": {
    usage:
      "Usage: hub admin member invite --org ORG_ID --email EMAIL [--json]\n\nMakes the member's dashboard account (on the first invite) and prints a one-time sign-in link,\nvalid 24 hours: the member sets a password on first use.",
    options: { org: text, email: text, json },
    positionals: 0,
    build: (values, _, fail) => ({
      verb: "member.invite",
      orgId: required(values, "org", fail),
      email: required(values, "email", fail),
    }),
  },

  "member list": {
    usage:
      "Usage: hub admin member list --org ORG_ID [--json]\n\nThe organization's members: account id, role (owner or member), joined, last sign-in, two-factor.",
    options: { org: text, json },
    positionals: 0,
    build: (values, _, fail) => ({ verb: "member.list", orgId: required(values, "org", fail) }),
  },

  "member remove": {
    usage:
      "Usage: hub admin member remove --org ORG_ID --email EMAIL [--json]\n\nDeletes the member's account with its sessions and invitations, as the dashboard's Remove does:\ntheir next request shows the sign-in page and their password signs in no more. The last owner\ncannot be removed; make another member owner first.",
    options: { org: text, email: text, json },
    positionals: 0,
    build: (values, _, fail) => ({
      verb: "member.remove",
      orgId: required(values, "org", fail),
      email: required(values, "email", fail),
    }),
  },

  "org disable": {
    usage:
      "Usage: hub admin org disable ORG_ID [--json]\n\nThe gateway refuses the organization's keys (EPX0002) and project id (EPX0009) within 2 seconds,\nuntil hub admin org enable. Its members still sign in to the dashboard.",
    options: { json },
    positionals: 1,
    build: (_, positionals) => ({ verb: "org.disable", orgId: positionals[0] as string }),
  },

  "org enable": {
    usage:
      "Usage: hub admin org enable ORG_ID [--json]\n\nThe organization's keys and project id work again within 2 seconds.",
    options: { json },
    positionals: 1,
    build: (_, positionals) => ({ verb: "org.enable", orgId: positionals[0] as string }),
  },

  "operator invite": {
    usage:
      "Usage: hub admin operator invite --email EMAIL [--json]\n\nMakes an operator's dashboard account (on the first invite) and prints a one-time sign-in link,\nvalid 24 hours.",
    options: { email: text, json },
    positionals: 0,
    build: (values, _, fail) => ({ verb: "operator.invite", email: required(values, "email", fail) }),
  },

  "reservations list": {
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
  },

  reindex: {
    usage:
      "Usage: hub admin reindex --chain DOMAIN --from BLOCK [--json]\n\nFor an EVM chain that reorganised below every block the reconciler keeps (it reads not ready and\nstops indexing): deletes every fact at or above BLOCK and moves the watermark below it, in one\ntransaction; the reconciler reads the chain again from BLOCK. Pick a block below the fork point.",
    options: { chain: text, from: text, json },
    positionals: 0,
    build(values, _, fail) {
      const chainDomain = required(values, "chain", fail);
      const from = required(values, "from", fail);
      if (!/^[1-9][0-9]{0,15}$/.test(from)) fail("--from must be a block number of 1 or more");
      return { verb: "chain.reindex", chainDomain, fromBlock: Number(from) };
    },
  },

  "reservations reconcile": {
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
  },

  usage: {
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
  },

  "audit list": {
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
  },
};

function required(values: OptionValues, name: string, fail: (message: string) => never): string {
  const value = values[name];
  if (typeof value !== "string" || value.length === 0) fail(`--${name} is required`);
  return value as string;
}
