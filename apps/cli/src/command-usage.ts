const ENVIRONMENT = `Environment:
  HUB_DATA_DIR   data dir of the embedded database (default .data)
  DATABASE_URL   PostgreSQL server; when set, the data dir's database is not used
  DASHBOARD_PUBLIC_ORIGIN, DASHBOARD_HOST, DASHBOARD_PORT
                 where invite links point: that origin, else the running stack's dashboardUrl
                 (dev.json), else http://DASHBOARD_HOST:DASHBOARD_PORT (127.0.0.1:8081)`;

export const TOP_USAGE = `Usage: hub <command> [options]

Commands:
  start                                              run the full local stack (what npm start runs)
  migrate [--json]                                   apply pending database migrations
  doctor [--url URL] [--json]                        what the running stack's /readyz says, check by check
  doctor --settings [--only ROLES] [--json]          what is wrong with this environment for production
  admin org create --name NAME                       create an organization
  admin org list [--limit N] [--after ORG]           list organizations, oldest first
  admin org show ORG                                 show an organization and its project
  admin org disable ORG | admin org enable ORG       refuse an organization's keys and project id, or not
  admin project create --org ORG [--origin URL]...   create the organization's project
  admin project origins --project P --origin URL...  replace a project's allowed origins
  admin project show P                               show a project
  admin key create --org ORG [--expires DURATION] [--label TEXT]
                                                     create an API key (shown once)
  admin key revoke KEY_ID                            revoke an API key
  admin key disable KEY_ID | admin key enable KEY_ID refuse an API key until it is enabled, or enable it
  admin key list --org ORG                           list an organization's keys
  admin member invite --org ORG --email E            a one-time dashboard sign-in link for a member (24 h)
  admin member list --org ORG                        an organization's members, roles and two-factor
  admin member remove --org ORG --email E            remove a member and end their sessions
  admin operator invite --email E                    a one-time dashboard sign-in link for an operator (24 h)
  admin reservations list [--state S] [--org ORG]    list submission reservations, oldest first
  admin reservations reconcile HUB_ORDER_ID (--opened ONCHAIN_ORDER_ID | --not-opened) [--note TEXT]
                                                     settle a reservation whose outcome is unknown
  admin usage --org ORG [--hours N]                  an organization's calls per hour (last 24 h)
  admin audit list [--org ORG] [--limit N] [--after ID]  the admin actions, newest first
  admin reindex --chain DOMAIN --from BLOCK          re-index an EVM chain from a block (a reorganisation
                                                     deeper than the kept blocks)

Every admin verb takes --json and then prints exactly one JSON object.
Exit codes: 0 done, 1 refused or failed, 2 bad arguments.
"hub <command> --help" shows one command.

${ENVIRONMENT}`;

export const ADMIN_USAGE = `Usage: hub admin <org|project|key|member|operator|reservations|usage|audit|reindex> <verb> [options] [--json]

  org create --name NAME | org list [--limit N] [--after ORG] | org show ORG | org disable ORG | org enable ORG
  project create --org ORG [--origin URL]... | project origins --project P --origin URL... | project show P
  key create --org ORG [--expires DURATION] [--label TEXT] | key revoke KEY_ID | key list --org ORG
  key disable KEY_ID | key enable KEY_ID
  member invite --org ORG --email E | member list --org ORG | member remove --org ORG --email E
  operator invite --email E
  reservations list [--state S] [--org ORG] | reservations reconcile HUB_ORDER_ID (--opened ID | --not-opened) [--note TEXT]
  usage --org ORG [--hours N] | audit list [--org ORG] [--limit N] [--after ID]
  reindex --chain DOMAIN --from BLOCK

A change is in force at the gateway within 2 seconds.

${ENVIRONMENT}`;

export const MIGRATE_USAGE = `Usage: hub migrate [--json]

Applies the pending numbered migrations (packages/store/migrations) to the database, each in its own
transaction. Safe to run while other processes start: they wait for each other.

${ENVIRONMENT}`;

export const DOCTOR_USAGE = `Usage: hub doctor [--url URL] [--json]
       hub doctor --settings [--only gateway,hub,dashboard] [--json]

Reads the running stack's readiness (GET /readyz on its operator listener) and prints every check:
the database, Redis when configured, each upstream, each chain's RPC and the reconciler's lag.
--url: the operator listener (default http://$METRICS_HOST:$METRICS_PORT, 127.0.0.1:9090).
Exit codes: 0 ready, 1 not ready, stopping or unreachable, 2 bad arguments.

--settings: checks this environment's settings for production instead, without a running stack: what
hub start would refuse, bind addresses, secrets (NAME or NAME_FILE), the https public addresses, trusted
proxies, the data dir. One line each; FAIL lines make the exit code 1, warn lines do not.
--only: the parts this host runs (default all three).`;

export const ORIGIN_HELP = `An origin is exact: http or https, host, optional port, no path, no wildcard
(e.g. https://app.example.com, http://127.0.0.1:5173). Default ports are dropped.`;
