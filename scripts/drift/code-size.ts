// Holds the size of the code's parts to ceilings that only come down: functions over 80 and over 200
// lines, files over 300 lines, and non-null assertions (`!`), in the apps' and packages' sources (tests
// and generated files left out). `node --import tsx scripts/drift/code-size.ts` prints the counts and
// the largest of each. When a change brings a count under its ceiling, lower the ceiling with it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const ceilings = {
  functionsOver80Lines: 0,
  functionsOver200Lines: 0,
  filesOver300Lines: 0,
  nonNullAssertions: 40,
};

const root = new URL("../../", import.meta.url).pathname;

interface Measured {
  functions: { where: string; lines: number }[];
  files: { where: string; lines: number }[];
  nonNullAssertions: { where: string }[];
}

function sourceFiles(dir: string, found: string[]): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name === "test" || name === "generated") continue;
      sourceFiles(path, found);
    } else if (name.endsWith(".ts") && !name.endsWith(".d.ts") && !name.endsWith(".test.ts"))
      found.push(path);
  }
  return found;
}

function functionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return "(anonymous)";
}

export function measure(): Measured {
  const measured: Measured = { functions: [], files: [], nonNullAssertions: [] };
  const files = ["apps", "packages"].flatMap((top) =>
    readdirSync(join(root, top)).flatMap((part) => {
      const src = join(root, top, part, "src");
      try {
        return statSync(src).isDirectory() ? sourceFiles(src, []) : [];
      } catch {
        return [];
      }
    }),
  );
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const where = relative(root, file);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    measured.files.push({ where, lines: source.getLineAndCharacterOfPosition(text.length).line + 1 });
    const visit = (node: ts.Node): void => {
      if (ts.isNonNullExpression(node)) measured.nonNullAssertions.push({ where });
      if (
        ts.isFunctionDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isGetAccessorDeclaration(node)
      ) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        measured.functions.push({ where: `${where}: ${functionName(node, source)}`, lines: end - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return measured;
}

function counts(measured: Measured): typeof ceilings {
  return {
    functionsOver80Lines: measured.functions.filter((f) => f.lines > 80).length,
    functionsOver200Lines: measured.functions.filter((f) => f.lines > 200).length,
    filesOver300Lines: measured.files.filter((f) => f.lines > 300).length,
    nonNullAssertions: measured.nonNullAssertions.length,
  };
}

export async function check(): Promise<string[]> {
  const now = counts(measure());
  return (Object.keys(ceilings) as (keyof typeof ceilings)[])
    .filter((key) => now[key] > ceilings[key])
    .map((key) => `${key} is ${now[key]}, over its ceiling of ${ceilings[key]} (scripts/drift/code-size.ts)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const measured = measure();
  console.log(JSON.stringify({ counts: counts(measured), ceilings }, null, 2));
  const longest = [...measured.functions].sort((a, b) => b.lines - a.lines).slice(0, 12);
  for (const f of longest) console.log(`function ${f.lines} lines  ${f.where}`);
  const largest = [...measured.files].sort((a, b) => b.lines - a.lines).filter((f) => f.lines > 300);
  for (const f of largest) console.log(`file ${f.lines} lines  ${f.where}`);
}
