// `hub start` runs the stack's TypeScript as one ES module bundled by esbuild, instead of through tsx's
// hooks (a round trip to the hooks' thread per file, 350 files). The bundle is a cache, not a build
// step: made on the first start, kept in node_modules/.cache/intent-hub/start, and made again as soon
// as any file it was made from, or any package.json, lockfile or tsconfig, differs.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const cacheDir = join(root, "node_modules", ".cache", "intent-hub", "start");
const manifestFile = join(cacheDir, "manifest.json");
const entry = "apps/cli/src/start-command.ts";

/** What decides how the sources resolve and compile, besides the sources: this file included. */
function settingsFiles() {
  const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const packageFiles = workspaces.flatMap((pattern) => {
    const parent = pattern.replace(/\/\*$/, "");
    return readdirSync(join(root, parent)).map((name) => `${parent}/${name}/package.json`);
  });
  return [
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "tsconfig.base.json",
    relative(root, fileURLToPath(import.meta.url)),
    ...packageFiles,
  ];
}

/** One hash over the paths and contents; a file that cannot be read (deleted) hashes as such. */
function digest(files) {
  const hash = createHash("sha256").update(process.version);
  for (const file of files) {
    hash.update(file).update("\0");
    try {
      hash.update(readFileSync(join(root, file)));
    } catch {
      hash.update("missing");
    }
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 24);
}

function writeAtomically(path, contents) {
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/**
 * Third-party packages stay external: they load from node_modules as they do under tsx, which the
 * bundle can do because it sits inside node_modules. A package that would resolve to another copy
 * from there than from its importer fails the build, and `hub start` runs through tsx instead.
 * import.meta.url is each source file's own, so files read beside the sources are found.
 */
const hubSources = {
  name: "hub-sources",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("@hub/") || args.pluginData === "check") return undefined;
      const options = { kind: args.kind, pluginData: "check" };
      const [fromImporter, fromBundle] = await Promise.all([
        build.resolve(args.path, { ...options, resolveDir: args.resolveDir }),
        build.resolve(args.path, { ...options, resolveDir: cacheDir }),
      ]);
      if (fromImporter.path !== fromBundle.path)
        return { errors: [{ text: `${args.path} resolves to another copy from ${cacheDir}` }] };
      return { path: args.path, external: true };
    });
    build.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, "utf8")).replaceAll(
        "import.meta.url",
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: "ts",
    }));
  },
};

async function buildBundle() {
  const { build } = await import("esbuild");
  mkdirSync(cacheDir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: join(cacheDir, "start.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    // Function and class names as tsx gives them (error types in logs, for one).
    keepNames: true,
    sourcemap: "linked",
    metafile: true,
    write: false,
    logLevel: "silent",
    plugins: [hubSources],
  });
  const inputs = [...Object.keys(result.metafile.inputs), ...settingsFiles()];
  const name = `start-${digest(inputs)}`;
  const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint);
  // The packages the bundle imports, loaded first and from the same folder, so that turning on source
  // maps for the bundle does not read every package's own maps.
  const packages = [
    ...new Set(output.imports.filter((i) => i.external && i.kind === "import-statement").map((i) => i.path)),
  ];
  for (const file of result.outputFiles) {
    const isMap = file.path.endsWith(".map");
    const text = isMap ? file.text : file.text.replace(/start\.mjs\.map\s*$/, `${name}.mjs.map\n`);
    writeAtomically(join(cacheDir, isMap ? `${name}.mjs.map` : `${name}.mjs`), text);
  }
  writeAtomically(
    join(cacheDir, `${name}-packages.mjs`),
    packages.map((path) => `import ${JSON.stringify(path)};\n`).join(""),
  );
  const manifest = { name, inputs };
  writeAtomically(manifestFile, JSON.stringify(manifest));
  pruneOldBundles(name);
  return manifest;
}

/** Bundles of earlier sources, untouched for an hour, are no longer loaded by any start. */
function pruneOldBundles(current) {
  const hourAgoMs = Date.now() - 3600_000;
  for (const file of readdirSync(cacheDir)) {
    if (!file.startsWith("start-") || file.startsWith(current)) continue;
    try {
      if (statSync(join(cacheDir, file)).mtimeMs < hourAgoMs) rmSync(join(cacheDir, file), { force: true });
    } catch {
      // Removed by another start meanwhile.
    }
  }
}

/**
 * The bundle of start-command.ts for the sources as they are now, made first if needed: `packagesUrl`
 * (the third-party packages it imports) to import before turning on source maps, then `url`.
 */
export async function loadStartBundle() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  } catch {
    manifest = undefined;
  }
  if (!manifest || digest(manifest.inputs) !== manifest.name.slice("start-".length))
    manifest = await buildBundle();
  return {
    packagesUrl: pathToFileURL(join(cacheDir, `${manifest.name}-packages.mjs`)).href,
    url: pathToFileURL(join(cacheDir, `${manifest.name}.mjs`)).href,
  };
}
