// A provider kind is named only in its own folder (apps/hub/src/providers/<kind>/) and the registry:
// every folder holding a `<kind>-kind.ts` must declare that kind and be imported by the registry, and no
// other source of the apps and packages may hold the kind's name as a string (a branch on the kind
// belongs behind the ProviderKind interface). The devnet is left out: it is the upstream stand-in.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const root = new URL("../../", import.meta.url).pathname;
const providersDir = join(root, "apps/hub/src/providers");
const registryFile = join(providersDir, "provider-registry.ts");

function sourceFiles(dir: string, found: string[]): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, found);
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

/** Every string literal of a file (template literals without substitutions too), with its line. */
function stringLiterals(path: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const found: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ text: node.text, line: line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export async function check(): Promise<string[]> {
  const problems: string[] = [];
  const registry = readFileSync(registryFile, "utf8");
  const kinds = readdirSync(providersDir).filter((name) =>
    existsSync(join(providersDir, name, `${name}-kind.ts`)),
  );
  if (kinds.length === 0) problems.push("apps/hub/src/providers/ holds no <kind>/<kind>-kind.ts");
  for (const kind of kinds) {
    const file = `apps/hub/src/providers/${kind}/${kind}-kind.ts`;
    if (!stringLiterals(join(root, file)).some((literal) => literal.text === kind))
      problems.push(`${file} does not declare kind "${kind}" (a kind's folder is named after it)`);
    if (!registry.includes(`"./${kind}/${kind}-kind.js"`))
      problems.push(`${file} is not in the registry (apps/hub/src/providers/provider-registry.ts)`);
  }
  const names = new Set(kinds);
  const sources = ["apps", "packages"].flatMap((top) =>
    readdirSync(join(root, top))
      .filter((name) => !(top === "apps" && name === "devnet"))
      .map((name) => join(root, top, name, "src"))
      .filter((dir) => existsSync(dir))
      .flatMap((dir) => sourceFiles(dir, [])),
  );
  for (const path of sources) {
    if (path.startsWith(`${providersDir}/`)) continue;
    for (const literal of stringLiterals(path)) {
      if (names.has(literal.text))
        problems.push(
          `${relative(root, path)}:${literal.line} names provider kind "${literal.text}": ask the provider registry (apps/hub/src/providers/) instead`,
        );
    }
  }
  return problems;
}
