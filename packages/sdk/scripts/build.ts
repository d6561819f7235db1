// Builds the publishable package: `tsc` into dist/ (or the folder given), then a package.json there whose
// exports point at the emitted JavaScript. Publish with `npm publish <outDir>`. Types stay type-only
// imports, so nothing of @hub/contract is in the emitted JavaScript (examples.slow and build tests check it).
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const packageDir = new URL("..", import.meta.url).pathname;
const outDir = resolve(process.argv[2] ?? join(packageDir, "dist"));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(outDir, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", join(packageDir, "tsconfig.build.json"), "--outDir", outDir], {
  stdio: "inherit",
});
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const entry = (name: string) => ({ types: `./${name}.d.ts`, default: `./${name}.js` });
const published = {
  name: manifest.name,
  version: manifest.version,
  description: manifest.description,
  license: manifest.license,
  type: "module",
  exports: { ".": entry("index"), "./viem": entry("viem") },
  peerDependencies: manifest.peerDependencies,
  peerDependenciesMeta: manifest.peerDependenciesMeta,
};
writeFileSync(join(outDir, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
writeFileSync(join(outDir, "README.md"), readFileSync(join(packageDir, "README.md")));
console.log(`built ${manifest.name}@${manifest.version} in ${outDir}`);
