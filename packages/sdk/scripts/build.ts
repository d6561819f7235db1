// Builds the publishable package: `tsc` into dist/ (or the folder given), then a package.json there whose
// exports point at the emitted JavaScript. Publish with `npm publish <outDir>`. The SDK imports the
// contract's types only, so nothing of @hub/contract is in the emitted JavaScript; its declarations are
// written out in full into types.d.ts, so the published types need neither the contract nor zod.
// test/build.test.ts checks both.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import ts from "typescript";

const packageDir = new URL("..", import.meta.url).pathname;
const outDir = resolve(process.argv[2] ?? join(packageDir, "dist"));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(outDir, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", join(packageDir, "tsconfig.build.json"), "--outDir", outDir], {
  stdio: "inherit",
});
writeFileSync(join(outDir, "types.d.ts"), expandedTypes(join(packageDir, "src/types.ts")));

/** Every type src/types.ts exports, written out structurally (no import of @hub/contract or zod left). */
function expandedTypes(file: string): string {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`cannot read ${file}`);
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias;
  const lines = checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return `export type ${symbol.name} = ${checker.typeToString(checker.getDeclaredTypeOfSymbol(target), undefined, flags)};`;
  });
  return `// The wire types of the hub contract, written out in full by scripts/build.ts.\n${lines.join("\n")}\n`;
}

const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const entry = (name: string) => ({ types: `./${name}.d.ts`, default: `./${name}.js` });
const published = {
  name: manifest.name,
  version: manifest.version,
  description: manifest.description,
  license: manifest.license,
  type: "module",
  exports: { ".": entry("index"), "./viem": entry("viem"), "./solana": entry("solana") },
  peerDependencies: manifest.peerDependencies,
  peerDependenciesMeta: manifest.peerDependenciesMeta,
};
writeFileSync(join(outDir, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
writeFileSync(join(outDir, "README.md"), readFileSync(join(packageDir, "README.md")));
console.log(`built ${manifest.name}@${manifest.version} in ${outDir}`);
