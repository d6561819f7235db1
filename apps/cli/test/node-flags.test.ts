import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const root = new URL("../../../", import.meta.url);
const { scripts } = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  scripts: Record<string, string>;
};
const unit = readFileSync(new URL("ops/systemd/intent-hub.service", root), "utf8");

/**
 * The node flags of a command line: what comes between node and the script, tsx's import and the
 * `source` condition (development runs the sources, production the build) aside.
 */
function nodeFlags(command: string, script: string): string[] {
  const words = command.trim().split(/\s+/);
  assert.match(words[0] ?? "", /(^|\/)node$/, command);
  const end = words.indexOf(script);
  assert.ok(end > 0, `${script} in ${command}`);
  return words
    .slice(1, end)
    .filter(
      (word, i, all) => word !== "--import" && all[i - 1] !== "--import" && word !== "--conditions=source",
    );
}

test("npm start, npm run bench, the systemd unit and the production image run node with the same flags", () => {
  const start = nodeFlags(scripts.start ?? "", "apps/cli/bin/hub.js");
  const execStart = unit.match(/^ExecStart=(.*)$/m)?.[1] ?? "";
  assert.ok(start.includes("--max-semi-space-size=64"), scripts.start);
  assert.deepEqual(nodeFlags(scripts.bench ?? "", "scripts/bench.ts"), start);
  assert.deepEqual(nodeFlags(execStart, "apps/cli/bin/hub.js"), start);
  const image = readFileSync(new URL("scripts/production-image.sh", root), "utf8");
  const imageStart = image.match(/^\s*exec (node .*) "\$@"$/m)?.[1] ?? "";
  assert.deepEqual(nodeFlags(imageStart, "apps/cli/bin/hub.js"), start);
});
