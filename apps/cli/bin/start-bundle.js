// `hub start`'s TypeScript as one esbuild bundle instead of through tsx's hooks. A cache, not a build
// step: the first start makes it, and every start checks it against every file it was made from and
// makes it again if one changed (docs/decisions.md).
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const esbuildPackageFile = createRequire(import.meta.url).resolve("esbuild/package.json");

/** The start's bundle in this checkout: `hub start`'s entry, cached in node_modules/.cache. */
export function startBundleOptions(cacheDir) {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  return {
    root,
    entry: "apps/cli/src/start-command.ts",
    cacheDir: cacheDir || join(root, "node_modules", ".cache", "intent-hub", "start-bundle"),
  };
}

/**
 * What decides the bundle besides the sources it reads: the package files and tsconfigs (how the
 * sources resolve and compile), esbuild's version and this file. The sources' own list comes from the
 * build; these are read before it, so a change during a build is seen by the next start.
 */
function settingsFiles(root) {
  const files = [fileURLToPath(import.meta.url), esbuildPackageFile];
  for (const name of ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.base.json"])
    files.push(join(root, name));
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  for (const pattern of workspaces) {
    const parent = join(root, pattern.replace(/\/\*$/, ""));
    for (const name of readdirSync(parent)) files.push(join(parent, name, "package.json"));
  }
  return files;
}

/** A file's identity on disk: any write changes its ctime, which no tool sets back. */
function stamp(file) {
  try {
    const { size, mtimeMs, ctimeMs, ino } = statSync(file);
    return `${size}:${mtimeMs}:${ctimeMs}:${ino}`;
  } catch {
    return "missing";
  }
}

function readOrMissing(file) {
  try {
    return readFileSync(file);
  } catch {
    return "missing";
  }
}

/** One hash over node's version and each file's path and content, in the order given. */
function contentHash(files, contentOf) {
  const hash = createHash("sha256").update(process.version).update("\0");
  for (const file of files) hash.update(file).update("\0").update(contentOf(file)).update("\0");
  return hash.digest("hex").slice(0, 32);
}

/** The node_modules package folder a bare specifier names, looked up from `fromDir` as node does. */
function packageFolder(specifier, fromDir) {
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (stamp(join(candidate, "package.json")) !== "missing") return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Workspace modules keep their own file's import.meta.url, so files beside the sources are found.
 * Third-party packages stay external; one found in another folder from the cache than from its
 * importer fails the build.
 */
function workspacePlugin(root, cacheDir, loaded) {
  return {
    name: "hub-workspace",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        const found = packageFolder(args.path, args.resolveDir);
        if (!found) return undefined;
        if (!relative(root, found).startsWith(`node_modules${sep}@hub${sep}`)) {
          if (found !== packageFolder(args.path, cacheDir))
            return { errors: [{ text: `${args.path} is another copy from ${relative(root, cacheDir)}` }] };
          return { path: args.path, external: true };
        }
        return undefined;
      });
      build.onLoad({ filter: /\.(ts|js|mjs|json)$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const identity = stamp(args.path);
        const source = readFileSync(args.path);
        loaded.set(args.path, { identity, source });
        let text = source.toString("utf8");
        if (/\bimport\.meta\.resolve\(\s*["'`]\./.test(text))
          throw new Error(`${relative(root, args.path)} resolves a relative path with import.meta.resolve`);
        text = text
          .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
          .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path))
          .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(args.path)));
        const loader = args.path.endsWith(".json") ? "json" : args.path.endsWith(".ts") ? "ts" : "js";
        return { contents: text, loader };
      });
    },
  };
}

function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/** The third-party packages the sources import, each with the workspace folders importing it. */
function importedPackages(root, metafile) {
  const packages = new Map();
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    const folder = input.split("/").slice(0, 2).join("/");
    for (const { path, kind, external } of imports) {
      if (!external || kind !== "import-statement" || isBuiltin(path) || path.startsWith("<")) continue;
      if (!packages.has(path)) packages.set(path, new Set());
      packages.get(path).add(folder);
    }
  }
  return [...packages].map(([name, folders]) => [name, [...folders].sort()]).sort();
}

async function buildBundle({ root, entry, cacheDir }) {
  const { build } = await import("esbuild");
  const settings = settingsFiles(root).map((file) => ({
    file,
    identity: stamp(file),
    source: readOrMissing(file),
  }));
  const loaded = new Map();
  mkdirSync(cacheDir, { recursive: true });
  const outdir = join(cacheDir, `build-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: { "start-command": join(root, entry) },
      outdir,
      outExtension: { ".js": ".mjs" },
      chunkNames: "chunk-[hash]",
      bundle: true,
      // Each dynamically imported module stays an ES module of its own, so top-level await and the
      // order of evaluation are node's, as under tsx (one file, esbuild's lazy wrappers do not await
      // every async module: a re-exporting index starts them without waiting).
      splitting: true,
      platform: "node",
      // The workspace packages' sources (their `source` export), never a build's dist/.
      conditions: ["source"],
      format: "esm",
      target: `node${process.versions.node.split(".")[0]}`,
      // Function and class names as tsx keeps them (error names in logs, for one).
      keepNames: true,
      sourcemap: "linked",
      sourcesContent: false,
      metafile: true,
      logLevel: "silent",
      plugins: [workspacePlugin(root, cacheDir, loaded)],
    });
    const identities = new Map([
      ...settings.map(({ file, identity, source }) => [file, { identity, source }]),
      ...loaded,
    ]);
    const files = [...identities.keys()].sort();
    const key = contentHash(files, (file) => identities.get(file).source);
    const packages = importedPackages(root, result.metafile);
    writeFileSync(
      join(outdir, "preload.mjs"),
      `const packages = ${JSON.stringify(packages)};\n` +
        "export function preload(skippedFolders) {\n" +
        "  const wanted = packages.filter(([, folders]) => folders.some((folder) => !skippedFolders.includes(folder)));\n" +
        "  return Promise.all(wanted.map(([name]) => import(name)));\n" +
        "}\n",
    );
    try {
      renameSync(outdir, join(cacheDir, key));
    } catch (error) {
      // Another start made the same bundle meanwhile.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    }
    const manifest = { key, files: files.map((file) => [file, identities.get(file).identity]) };
    writeAtomically(join(cacheDir, "manifest.json"), JSON.stringify(manifest));
    pruneBundles(cacheDir, key);
    return key;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Bundles of earlier sources, not used for an hour, are removed (a start in progress may run one). */
function pruneBundles(cacheDir, current) {
  const hourAgoMs = Date.now() - 3_600_000;
  for (const name of readdirSync(cacheDir)) {
    if (name === current || name === "manifest.json") continue;
    try {
      if (statSync(join(cacheDir, name)).mtimeMs < hourAgoMs)
        rmSync(join(cacheDir, name), { recursive: true, force: true });
    } catch {
      // Removed by another start meanwhile.
    }
  }
}

/**
 * The bundle's key if it was made from the files as they are: each file's stat first; only when one
 * differs, their contents (a copy or a checkout rewrites files without changing them).
 */
function currentKey(cacheDir) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(cacheDir, "manifest.json"), "utf8"));
  } catch {
    return undefined;
  }
  if (stamp(join(cacheDir, manifest.key, "start-command.mjs")) === "missing") return undefined;
  if (manifest.files.every(([file, identity]) => stamp(file) === identity)) return manifest.key;
  const files = manifest.files.map(([file]) => file);
  const identities = files.map(stamp);
  if (contentHash(files, readOrMissing) !== manifest.key) return undefined;
  const refreshed = { key: manifest.key, files: files.map((file, i) => [file, identities[i]]) };
  writeAtomically(join(cacheDir, "manifest.json"), JSON.stringify(refreshed));
  return manifest.key;
}

/**
 * The bundle of `entry` for the sources as they are now, made first if needed: `url`, and `preloadUrl`,
 * whose `preload(skippedFolders)` imports the bundle's packages but those only `skippedFolders` import.
 */
export async function loadStartBundle(options = startBundleOptions()) {
  const key = currentKey(options.cacheDir) ?? (await buildBundle(options));
  const dir = join(options.cacheDir, key);
  return {
    preloadUrl: pathToFileURL(join(dir, "preload.mjs")).href,
    url: pathToFileURL(join(dir, "start-command.mjs")).href,
  };
}
