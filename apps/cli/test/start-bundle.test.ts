import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { pathToFileURL } from "node:url";
import { loadStartBundle, type StartBundleOptions } from "../bin/start-bundle.js";

const projects = mkdtempSync(join(tmpdir(), "hub-start-bundle-"));
after(() => rmSync(projects, { recursive: true, force: true }));

interface Entry {
  note: string;
  noteUrl: string;
  lazyValue: () => Promise<string>;
}

/** A project of its own: package.json, sources and a cache folder in its node_modules. */
function project(name: string, files: Record<string, string>): StartBundleOptions {
  const root = join(projects, name);
  for (const [path, text] of Object.entries({ "package.json": '{ "type": "module" }\n', ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, entry: "src/entry.ts", cacheDir: join(root, "node_modules", ".cache", "start-bundle") };
}

const valueSource = (value: string) =>
  `export const value: string = await new Promise((resolve) => setTimeout(() => resolve("${value}"), 20));\n`;

const sources = {
  "src/entry.ts": [
    'import { readFileSync } from "node:fs";',
    'export const noteUrl: string = new URL("../data/note.txt", import.meta.url).href;',
    'export const note: string = readFileSync(new URL("../data/note.txt", import.meta.url), "utf8");',
    "export async function lazyValue(): Promise<string> {",
    '  const { readValue } = await import("./lazy/index.js");',
    "  return readValue();",
    "}",
  ].join("\n"),
  "src/lazy/index.ts": 'export * from "./read-value.js";\nexport * from "./value.js";\n',
  "src/lazy/read-value.ts": 'import { value } from "./value.js";\nexport const readValue = () => value;\n',
  // Top-level await on a timer, as on a WebAssembly compile: not settled within the importer's own turn.
  "src/lazy/value.ts": valueSource("first"),
  "data/note.txt": "a note beside the sources",
};

test("a bundled module reads the files beside its source through import.meta.url", async () => {
  const options = project("meta-url", sources);
  const bundle = await loadStartBundle(options);
  assert.ok(bundle.url.startsWith(pathToFileURL(options.cacheDir).href));
  const entry = (await import(bundle.url)) as Entry;
  assert.equal(entry.noteUrl, pathToFileURL(join(options.root, "data/note.txt")).href);
  assert.equal(entry.note, "a note beside the sources");
});

test("a dynamically imported module behind a re-exporting index finishes its top-level await before it is used", async () => {
  const bundle = await loadStartBundle(project("top-level-await", sources));
  const entry = (await import(bundle.url)) as Entry;
  assert.equal(await entry.lazyValue(), "first");
});

test("an edited source makes a new bundle before the next start, even with its size and mtime kept", async () => {
  const options = project("edited", sources);
  const first = await loadStartBundle(options);
  assert.equal(await ((await import(first.url)) as Entry).lazyValue(), "first");
  assert.deepEqual(await loadStartBundle(options), first, "unchanged sources reuse the bundle");

  const valueFile = join(options.root, "src/lazy/value.ts");
  const { atime, mtime } = statSync(valueFile);
  writeFileSync(valueFile, valueSource("other"));
  utimesSync(valueFile, atime, mtime);
  const second = await loadStartBundle(options);
  assert.notEqual(second.url, first.url);
  assert.equal(await ((await import(second.url)) as Entry).lazyValue(), "other");
});

test("a rewritten but unchanged source keeps the bundle", async () => {
  const options = project("rewritten", sources);
  const first = await loadStartBundle(options);
  writeFileSync(join(options.root, "src/lazy/value.ts"), sources["src/lazy/value.ts"]);
  assert.deepEqual(await loadStartBundle(options), first);
  assert.deepEqual(
    readdirSync(options.cacheDir).sort(),
    [first.url.split("/").at(-2), "manifest.json"].sort(),
    "no second bundle was made",
  );
});
