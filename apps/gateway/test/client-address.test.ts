import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { addressKey } from "../src/address-key.js";
import { clientAddress, createProxyTrust } from "../src/client-address.js";
import { gatewayConfigSchema } from "../src/gateway-config.js";
import { parseCidr } from "../src/parse-cidr.js";

const trust = createProxyTrust(["127.0.0.1/32", "10.0.0.0/8", "2001:db8:ffff::/48"]);

describe("the caller's address from the peer and X-Forwarded-For", () => {
  const rows: [string, string, string | string[] | undefined, boolean, string][] = [
    ["no trusted proxies: the header is ignored", "127.0.0.1", "203.0.113.7", false, "127.0.0.1"],
    ["an untrusted peer: the header is ignored", "198.51.100.9", "203.0.113.7", true, "198.51.100.9"],
    ["a trusted peer without the header is the caller", "10.1.2.3", undefined, true, "10.1.2.3"],
    ["a trusted peer: the right-most entry", "127.0.0.1", "203.0.113.7", true, "203.0.113.7"],
    [
      "entries left of the first untrusted one are the caller's own claims and ignored",
      "127.0.0.1",
      "192.0.2.66, 203.0.113.7",
      true,
      "203.0.113.7",
    ],
    [
      "trusted hops are skipped from the right",
      "127.0.0.1",
      "203.0.113.7, 10.0.0.5, 10.9.9.9",
      true,
      "203.0.113.7",
    ],
    [
      "a chain of only trusted proxies gives its left-most",
      "127.0.0.1",
      "10.0.0.5, 10.0.0.6",
      true,
      "10.0.0.5",
    ],
    [
      "an entry that is no address stops at the hop that wrote it",
      "127.0.0.1",
      "junk, 10.0.0.5",
      true,
      "10.0.0.5",
    ],
    ["an empty header gives the peer", "127.0.0.1", "", true, "127.0.0.1"],
    [
      "header lines sent twice read as one list",
      "127.0.0.1",
      ["192.0.2.66", "203.0.113.7"],
      true,
      "203.0.113.7",
    ],
    ["an IPv4-mapped peer is its IPv4 address", "::ffff:127.0.0.1", "203.0.113.7", true, "203.0.113.7"],
    ["an IPv4 entry with a port", "127.0.0.1", "203.0.113.7:5555", true, "203.0.113.7"],
    ["a bracketed IPv6 entry with a port", "127.0.0.1", "[2001:db8:1:2::9]:443", true, "2001:db8:1:2::9"],
    [
      "an IPv6 trusted hop is skipped",
      "127.0.0.1",
      "2001:db8:1::1, 2001:db8:ffff:1::2",
      true,
      "2001:db8:1::1",
    ],
    ["an untrusted IPv6 peer is the caller", "2001:db8:5::1", "203.0.113.7", true, "2001:db8:5::1"],
  ];
  for (const [name, peer, header, trusted, expected] of rows) {
    test(name, () => {
      assert.equal(clientAddress(peer, header, trusted ? trust : undefined), expected);
    });
  }
});

describe("the key the lockout and the visitor bucket count under", () => {
  const rows: [string, string, string][] = [
    ["an IPv4 address is itself", "203.0.113.7", "203.0.113.7"],
    ["an IPv6 address is its /64", "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["two addresses of one /64 share a key", "2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["a compressed prefix expands", "2001:db8::1", "2001:db8:0:0::/64"],
    ["the loopback", "::1", "0:0:0:0::/64"],
    ["upper case is the same key", "2001:DB8:1:2::1", "2001:db8:1:2::/64"],
  ];
  for (const [name, address, expected] of rows) {
    test(name, () => {
      assert.equal(addressKey(address), expected);
    });
  }
});

describe("GATEWAY_TRUSTED_PROXIES entries", () => {
  const rows: [string, string, boolean][] = [
    ["an IPv4 network", "10.0.0.0/8", true],
    ["an IPv6 network", "2001:db8::/32", true],
    ["a bare address is one host", "127.0.0.1", true],
    ["a prefix past the family's length", "10.0.0.0/33", false],
    ["an IPv6 prefix past 128", "::1/129", false],
    ["a name", "proxy.internal/32", false],
    ["a non-numeric prefix", "10.0.0.0/x", false],
  ];
  for (const [name, text, valid] of rows) {
    test(`${name}: ${valid ? "accepted" : "refused"}`, () => {
      assert.equal(parseCidr(text) !== undefined, valid);
      assert.equal(
        gatewayConfigSchema.safeParse({ hubCredential: "s", trustedProxies: [text] }).success,
        valid,
      );
    });
  }
});
