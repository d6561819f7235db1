// `npm run build`: compiles every workspace whose package.json exports carry a `source` condition
// (what `hub` runs: the apps and packages, not the SDK, which has its own build, nor test-support) from
// src/ to dist/, one JavaScript file and source map per TypeScript file, the same folder layout, so a
// module's `new URL("../assets/…", import.meta.url)` finds the same files from either. Files in src/
// that are not TypeScript are copied. Production resolves each package's `default` export (dist/),
// development and the tests the `source` one (src/, through tsx): docs/decisions.md, "Compiled build".
// esbuild transforms each file alone (types are `npm run typecheck`'s business): about 1 s for
// everything, where `tsc` with an outDir per workspace takes as long as a typecheck.
// Then `hub start`'s compiled modules are bundled into apps/cli/dist/start-bundle/, which bin/hub.js
// runs when it is there (docs/decisions.md, "Compiled build"): the same JavaScript, in a few files.

import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const root = fileURLToPath(new URL("../", import.meta.url));

/** The workspace folders (relative to the root) whose exports have a `source` condition. */
function builtWorkspaces(): string[] {
  const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    workspaces: string[];
  };
  return workspaces
    .flatMap((pattern) => {
      const parent = pattern.replace(/\/\*$/, "");
      return readdirSync(join(root, parent)).map((name) => `${parent}/${name}`);
    })
    .filter((folder) => {
      try {
        const manifest = JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8")) as {
          exports?: Record<string, unknown>;
        };
        return Object.values(manifest.exports ?? {}).some(
          (target) => typeof target === "object" && target !== null && "source" in target,
        );
      } catch {
        return false;
      }
    })
    .sort();
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Each source's relative imports of a .ts file outside `src`: [source, specifier, target .ts]. */
function importsOutside(src: string, sources: string[]): [string, string, string][] {
  const found: [string, string, string][] = [];
  for (const file of sources) {
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(
      /(?:from|import\()\s*"(\.\.?\/[^"]+\.js)"/g,
    )) {
      const target = join(dirname(file), (specifier as string).replace(/\.js$/, ".ts"));
      if (relative(src, target).startsWith("..") && existsSync(target))
        found.push([file, specifier as string, target]);
    }
  }
  return found;
}

const options = {
  bundle: false,
  platform: "node",
  format: "esm",
  target: "node24",
  // Function and class names as tsx keeps them (error names in logs, for one).
  keepNames: true,
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
} as const;

const started = performance.now();
let compiled = 0;
for (const folder of builtWorkspaces()) {
  const src = join(root, folder, "src");
  const dist = join(root, folder, "dist");
  rmSync(dist, { recursive: true, force: true });
  const files = filesUnder(src);
  const sources = files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"));
  await build({ ...options, entryPoints: sources, outdir: dist, outbase: src });
  const outside = importsOutside(src, sources);
  const targets = [...new Set(outside.map(([, , target]) => target))];
  if (targets.length > 0) {
    await build({
      ...options,
      entryPoints: targets,
      outdir: join(dist, "_outside"),
      outbase: join(root, folder),
    });
    compiled += targets.length;
  }
  for (const [file, specifier, target] of outside) {
    const compiledFile = join(dist, relative(src, file)).replace(/\.ts$/, ".js");
    const moved = join(dist, "_outside", relative(join(root, folder), target)).replace(/\.ts$/, ".js");
    const path = relative(dirname(compiledFile), moved);
    const text = readFileSync(compiledFile, "utf8");
    writeFileSync(
      compiledFile,
      text.replaceAll(`"${specifier}"`, JSON.stringify(path.startsWith(".") ? path : `./${path}`)),
    );
  }
  for (const file of files.filter((file) => !file.endsWith(".ts"))) {
    const target = join(dist, relative(src, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
  }
  compiled += sources.length;
}
// The dashboard's API reference script comes from a dev dependency (docs-routes.ts): the built copy
// carries it, so a pruned install still serves /docs/api.
const scalarEntry = createRequire(join(root, "apps/dashboard/package.json")).resolve("@scalar/api-reference");
mkdirSync(join(root, "apps/dashboard/dist/vendor"), { recursive: true });
cpSync(
  join(dirname(scalarEntry), "browser/standalone.js"),
  join(root, "apps/dashboard/dist/vendor/scalar-standalone.js"),
);
const bundled = await bundleStart();
console.log(
  `built ${compiled} files and a start bundle of ${bundled} in ${Math.round(performance.now() - started)} ms`,
);

/** The node_modules folder of the package a bare specifier names, looked up from `fromDir` as node does. */
function packageFolder(specifier: string, fromDir: string): string | undefined {
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name ?? "");
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The workspace's compiled modules go into the bundle; every other package stays an import, and one
 * that would resolve to another copy from the bundle's folder than from its importer fails the build.
 * Each module keeps its own file's import.meta.url, written relative to the bundle's folder (every
 * chunk is in it), so the copy can move and files beside dist/ are still found.
 */
function compiledWorkspacePlugin(outdir: string): Plugin {
  const sameFrom = (specifier: string, importerDir: string) =>
    packageFolder(specifier, importerDir) === packageFolder(specifier, outdir);
  return {
    name: "hub-compiled-workspace",
    setup(context) {
      context.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("node:")) return { path: args.path, external: true };
        const found = packageFolder(args.path, args.resolveDir);
        if (!found || relative(root, found).startsWith(`node_modules${sep}@hub${sep}`)) return undefined;
        if (!sameFrom(args.path, args.resolveDir))
          return { errors: [{ text: `${args.path} is another copy from ${relative(root, outdir)}` }] };
        return { path: args.path, external: true };
      });
      context.onLoad({ filter: /\.js$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        let text = readFileSync(args.path, "utf8");
        for (const [, specifier] of text.matchAll(/\bimport\.meta\.resolve\(\s*["'`]([^"'`]+)/g))
          if (specifier?.startsWith(".") || !sameFrom(specifier ?? "", dirname(args.path)))
            return {
              errors: [
                { text: `${relative(root, args.path)} resolves ${specifier} with import.meta.resolve` },
              ],
            };
        if (/\bimport\.meta\.(filename|dirname)\b/.test(text))
          return { errors: [{ text: `${relative(root, args.path)} uses import.meta.filename or dirname` }] };
        const own = relative(outdir, args.path).split(sep).join("/");
        text = text.replace(
          /\bimport\.meta\.url\b/g,
          `new URL(${JSON.stringify(own)}, import.meta.url).href`,
        );
        return { contents: text, loader: "js" };
      });
    },
  };
}

/**
 * `hub start` from the compiled modules as one esbuild bundle, split at each dynamic import so that
 * node evaluates the modules in the order it did from dist/ (docs/decisions.md, "start bundle"). Its
 * entry also exports what the production benchmark's anchor imports: the stack's modules and openStore.
 * Returns the number of modules in it.
 */
async function bundleStart(): Promise<number> {
  const dist = join(root, "apps/cli/dist");
  const entry = join(dist, "start-bundle-entry.js");
  writeFileSync(
    entry,
    [
      'export { runStart } from "./start-command.js";',
      'export { importStackModules } from "./start-foundations.js";',
      'export { openStore } from "@hub/store";',
      "",
    ].join("\n"),
  );
  const outdir = join(dist, "start-bundle");
  const result = await build({
    absWorkingDir: root,
    entryPoints: { start: entry },
    outdir,
    chunkNames: "chunk-[hash]",
    ...options,
    bundle: true,
    splitting: true,
    metafile: true,
    plugins: [compiledWorkspacePlugin(outdir)],
  });
  return Object.keys(result.metafile.inputs).length;
}
