import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCommand } from "../src/parse-command.js";
import { UsageError } from "../src/usage-error.js";

test("each admin verb parses into one request, with --json and repeated --origin", () => {
  assert.deepEqual(
    parseCommand([
      "admin",
      "project",
      "create",
      "--org",
      "org_a",
      "--origin",
      "https://a.example",
      "--origin",
      "https://b.example",
      "--json",
    ]),
    {
      kind: "admin",
      json: true,
      request: {
        verb: "project.create",
        orgId: "org_a",
        origins: ["https://a.example", "https://b.example"],
      },
    },
  );
  assert.deepEqual(parseCommand(["admin", "key", "revoke", "key_a"]), {
    kind: "admin",
    json: false,
    request: { verb: "key.revoke", keyId: "key_a" },
  });
  assert.deepEqual(
    parseCommand(["admin", "key", "create", "--org", "org_a", "--expires", "12h"]).kind,
    "admin",
  );
  assert.equal(parseCommand(["admin", "key", "create", "--help"]).kind, "help");
  assert.equal(parseCommand([]).kind, "help");
});

test("unknown verbs, unknown options, missing and extra arguments are usage errors", () => {
  for (const argv of [
    ["frobnicate"],
    ["admin", "org"],
    ["admin", "org", "delete"],
    ["admin", "org", "create", "--name", "A", "--colour", "red"],
    ["admin", "org", "create", "--name"],
    ["admin", "key", "revoke"],
    ["admin", "key", "revoke", "key_a", "key_b"],
    ["admin", "project", "origins", "--project", "proj_a"],
    ["admin", "org", "list", "--limit", "0"],
    ["migrate", "--force"],
  ]) {
    assert.throws(() => parseCommand(argv), UsageError, argv.join(" "));
  }
});
