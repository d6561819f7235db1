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
  for (const [argv, request] of [
    [["admin", "key", "disable", "key_a"], { verb: "key.disable", keyId: "key_a" }],
    [["admin", "key", "enable", "key_a"], { verb: "key.enable", keyId: "key_a" }],
    [["admin", "org", "disable", "org_a"], { verb: "org.disable", orgId: "org_a" }],
    [["admin", "org", "enable", "org_a"], { verb: "org.enable", orgId: "org_a" }],
    [["admin", "member", "list", "--org", "org_a"], { verb: "member.list", orgId: "org_a" }],
    [
      ["admin", "member", "remove", "--org", "org_a", "--email", "a@example.com"],
      { verb: "member.remove", orgId: "org_a", email: "a@example.com" },
    ],
  ] as const) {
    assert.deepEqual(parseCommand([...argv]), { kind: "admin", json: false, request }, argv.join(" "));
  }
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
    ["admin", "key", "disable"],
    ["admin", "org", "enable"],
    ["admin", "member", "list"],
    ["admin", "member", "remove", "--org", "org_a"],
    ["admin", "project", "origins", "--project", "proj_a"],
    ["admin", "org", "list", "--limit", "0"],
    ["migrate", "--force"],
  ]) {
    assert.throws(() => parseCommand(argv), UsageError, argv.join(" "));
  }
});
