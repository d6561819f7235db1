// Builds the publishable package: `tsc` into dist/ (or the folder given): ES2022 modules, declarations and
// source maps (sources inlined, so a debugger needs no src/). package.json's exports point at dist/ for
// consumers and at src/ under the workspace's own `source` condition. `npm pack` / `npm publish` run this
// first (prepack). The SDK imports the contract's types only, so nothing of @hub/contract is in the
// emitted JavaScript; its declarations are written out in full into types.d.ts, so the published types
// need neither the contract nor zod. test/build.test.ts and test/pack.slow.test.ts check both.
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
    // The workspace's packages resolve to their sources (their `source` export); built, they carry no types.
    customConditions: ["source"],
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
console.error(`built ${manifest.name}@${manifest.version} in ${outDir}`);
