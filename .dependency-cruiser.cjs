// The layering of DESIGN.md §2, checked by `npm run verify` (scripts/drift/dependency-rules.ts).

// The floors of apps/hub/src, top first. A folder imports only folders on lower floors, never one on its
// own floor or above; the files at the top of src (create-hub-app.ts, config.ts, …) are the composition
// root above every floor, and no folder imports them. Types two floors share live on the lower one.
// A provider kind vets with its chain family's helpers (providers over chains); a chain family builds
// quote blocks, refund views and readiness checks (chains over quotes and onchain-views, the check type
// in metrics/readiness.ts); a provider kind's payload for one family lives in providers/<kind>/<family>/.
const hubFloors = [
  ["routes"],
  ["http"],
  ["services", "operations", "retention", "reconciler"],
  ["order-status", "open-flow", "submissions"],
  ["providers"],
  ["chains"],
  ["quotes"],
  ["onchain-views"],
  ["upstream"],
  ["limits", "metrics"],
  ["store"],
  ["status-rules", "lanes"],
];

const hubLayerRules = hubFloors.flatMap((floor, rank) =>
  floor.map((folder) => ({
    name: `hub-layers-${folder}`,
    comment: `apps/hub/src/${folder}/ imports only folders on lower floors (hubFloors in .dependency-cruiser.cjs).`,
    severity: "error",
    from: { path: `^apps/hub/src/${folder}/` },
    to: {
      path: `^apps/hub/src/(?:(?:${[...hubFloors.slice(0, rank).flat(), ...floor.filter((f) => f !== folder)].join("|") || "(?!)"})/|[^/]+\\.ts$)`,
    },
  })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...hubLayerRules,
    {
      name: "hub-folders-have-a-floor",
      comment: "Every folder of apps/hub/src is on a floor: a new folder is added to hubFloors first.",
      severity: "error",
      from: { path: "^apps/hub/src/[^/]+/", pathNot: `^apps/hub/src/(?:${hubFloors.flat().join("|")})/` },
      to: {},
    },
    {
      name: "packages-never-import-apps",
      comment: "A package is a layer below every app: it never imports one, by path or by @hub/*-app name.",
      severity: "error",
      from: { path: "^packages/" },
      to: { path: "^apps/|^@hub/[a-z-]+-app(/|$)" },
    },
    {
      name: "contract-imports-nothing-internal",
      comment:
        "packages/contract, packages/clock, packages/http-client (and the tests' packages/test-support) sit at the bottom: no other workspace package or app.",
      severity: "error",
      from: { path: "^packages/(contract|clock|http-client|test-support)/" },
      to: { path: "^(packages|apps)/|^@hub/", pathNot: "^packages/$1/" },
    },
    {
      name: "sdk-imports-contract-types-only",
      comment:
        "The published SDK needs nothing at runtime: of the workspace it imports only the contract, and only its types.",
      severity: "error",
      from: { path: "^packages/sdk/src/" },
      to: { path: "^(packages|apps)/|^@hub/", pathNot: "^packages/sdk/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "sdk-imports-only-the-contract",
      comment: "Of the workspace, the SDK's sources import the contract only.",
      severity: "error",
      from: { path: "^packages/sdk/src/" },
      to: { path: "^(packages|apps)/|^@hub/", pathNot: "^packages/(sdk|contract)/" },
    },
    {
      name: "dashboard-imports-no-other-app",
      comment:
        "The dashboard is built on packages (admin, store, counters, clock); what it needs of the hub, such as the reservation book, the start command passes in.",
      severity: "error",
      from: { path: "^apps/dashboard/src/" },
      to: { path: "^apps/(?!dashboard/)|^@hub/(?!dashboard-app)[a-z-]+-app(/|$)" },
    },
    {
      name: "routes-import-services-not-stores",
      comment: "Routes are thin: they call services, never a store or its SQL.",
      severity: "error",
      from: { path: "^apps/[^/]+/src/routes/" },
      to: { path: "(^apps/[^/]+/src/store/|-store\\.ts$|^packages/store/)" },
    },
    {
      name: "no-circular",
      comment: "No import cycles in production code.",
      severity: "error",
      from: { path: "^(apps|packages)/[^/]+/src/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/|^packages/chain/artifacts/|^(apps|packages)/[^/]+/dist/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      // `source` first: the workspace resolves its packages to their TypeScript sources (the SDK's
      // exports point at dist/ otherwise, which exists only after a build).
      conditionNames: ["source", "import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
