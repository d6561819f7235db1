import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import {
  decodeBody,
  defineRequestBody,
  HubError,
  openForRequestBody,
  orderCreateRequestBody,
  prepareQuoteRequestBody,
  quoteRequestBody,
  signatureSetOf,
} from "../src/index.js";

const SOLANA_KEY = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
const valid = {
  sourceAsset: "eip155:31337/erc20:0x5fbdb2315678afecb367f032d93f642f64180aa3",
  destinationAsset: "eip155:31338/slip44:60",
  amount: "1000000",
  recipient: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
};

function refusal(run: () => unknown): { code: string; reference: string | undefined } {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof HubError, `expected a HubError, got ${String(error)}`);
    return { code: error.code, reference: error.reference };
  }
  assert.fail("expected a refusal");
}

const decodeRows: Array<[string, unknown]> = [
  ["an array body is not a JSON object", [valid]],
  ["a string body is not a JSON object", "body"],
  ["a number body is not a JSON object", 42],
  ["null is not a JSON object", null],
  ["a number where a string is declared", { ...valid, amount: 1000000 }],
  ["a boolean where a string is declared", { ...valid, recipient: true }],
  ["an object where a string is declared", { ...valid, sourceAsset: { key: "x" } }],
  ["an array where a string is declared", { ...valid, swapType: ["exact-input"] }],
  [
    "a wrong type is a decode error even when an earlier field is also invalid",
    { ...valid, sourceAsset: "bad", amount: 5 },
  ],
];

for (const [rule, body] of decodeRows) {
  test(`decode phase: ${rule} answers EIN0001 with reference body`, () => {
    assert.deepEqual(
      refusal(() => decodeBody(quoteRequestBody, body)),
      { code: "EIN0001", reference: "body" },
    );
  });
}

const integerBody = defineRequestBody(
  z.object({
    count: z.number().int().min(1).max(10),
    ratio: z.number().optional(),
    flag: z.boolean().optional(),
    tags: z.array(z.string()).optional(),
    nested: z.object({ n: z.number().int() }).optional(),
  }),
);

const typeRows: Array<[string, unknown, { code: string; reference: string } | "ok"]> = [
  ["1.5 for an integer is a decode error", { count: 1.5 }, { code: "EIN0001", reference: "body" }],
  ["a string for an integer is a decode error", { count: "1" }, { code: "EIN0001", reference: "body" }],
  ["an integer within range decodes", { count: 3 }, "ok"],
  ["an integer out of range is a field error", { count: 11 }, { code: "EIN0001", reference: "count" }],
  ["a fraction for a number decodes", { count: 1, ratio: 0.5 }, "ok"],
  [
    "a string for a boolean is a decode error",
    { count: 1, flag: "true" },
    { code: "EIN0001", reference: "body" },
  ],
  [
    "a wrong item type inside an array is a decode error",
    { count: 1, tags: ["a", 1] },
    { code: "EIN0001", reference: "body" },
  ],
  [
    "a wrong type inside a nested object is a decode error",
    { count: 1, nested: { n: 0.1 } },
    { code: "EIN0001", reference: "body" },
  ],
  ["an unknown field inside a nested object is ignored", { count: 1, nested: { n: 1, x: "y" } }, "ok"],
];

for (const [rule, body, expected] of typeRows) {
  test(`JSON types: ${rule}`, () => {
    if (expected === "ok") assert.doesNotThrow(() => decodeBody(integerBody, body));
    else
      assert.deepEqual(
        refusal(() => decodeBody(integerBody, body)),
        expected,
      );
  });
}

test("unknown fields are ignored and never reach the result, __proto__ and constructor included", () => {
  const parsed = JSON.parse(
    `{"sourceAsset":"${valid.sourceAsset}","destinationAsset":"${valid.destinationAsset}","amount":"1","recipient":"r","extra":1,"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`,
  );
  const decoded = decodeBody(quoteRequestBody, parsed) as Record<string, unknown>;
  assert.deepEqual(Object.keys(decoded).sort(), [
    "amount",
    "destinationAsset",
    "recipient",
    "sourceAsset",
    "swapType",
  ]);
  assert.equal(Object.getPrototypeOf(decoded), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(decoded.polluted, undefined);
});

test("null for an optional field counts as absent and the default applies", () => {
  const decoded = decodeBody(quoteRequestBody, { ...valid, sourceAccount: null, swapType: null });
  assert.equal(decoded.sourceAccount, undefined);
  assert.equal("sourceAccount" in decoded, false);
  assert.equal(decoded.swapType, "exact-input");
});

test("null for a required field counts as absent and is reported on that field", () => {
  assert.deepEqual(
    refusal(() => decodeBody(quoteRequestBody, { ...valid, amount: null })),
    {
      code: "EIN0001",
      reference: "amount",
    },
  );
});

test("a valid quote request decodes to its known fields with swapType defaulting to exact-input", () => {
  assert.deepEqual(decodeBody(quoteRequestBody, valid), { ...valid, swapType: "exact-input" });
});

const quoteRows: Array<[string, Record<string, unknown>, string]> = [
  ["sourceAsset is required", { ...valid, sourceAsset: undefined }, "sourceAsset"],
  ["sourceAsset must be CAIP-19", { ...valid, sourceAsset: "USDC" }, "sourceAsset"],
  ["destinationAsset is required", { ...valid, destinationAsset: undefined }, "destinationAsset"],
  ["destinationAsset must be CAIP-19", { ...valid, destinationAsset: "eip155:1" }, "destinationAsset"],
  ["amount is required", { ...valid, amount: undefined }, "amount"],
  ["amount must be greater than 0", { ...valid, amount: "0" }, "amount"],
  ["amount must be a decimal string, no fraction", { ...valid, amount: "1.5" }, "amount"],
  ["amount must be a decimal string, no sign", { ...valid, amount: "-1" }, "amount"],
  ["amount must be a decimal string, no hex", { ...valid, amount: "0x10" }, "amount"],
  ["amount must have no leading zeros", { ...valid, amount: "007" }, "amount"],
  ["amount must not exceed 2^256-1", { ...valid, amount: (1n << 256n).toString() }, "amount"],
  ["recipient is required", { ...valid, recipient: undefined }, "recipient"],
  ["recipient must not be empty", { ...valid, recipient: "" }, "recipient"],
  [
    "a Solana recipient must decode as base58 to 32 bytes",
    { ...valid, destinationAsset: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501", recipient: "0xabc" },
    "recipient",
  ],
  [
    "a Solana sourceAccount must decode as base58 to 32 bytes",
    { ...valid, sourceAsset: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501", sourceAccount: "0OIl" },
    "sourceAccount",
  ],
  ["sourceAccount must not be empty when sent", { ...valid, sourceAccount: "" }, "sourceAccount"],
  ["swapType must be exact-input or exact-output", { ...valid, swapType: "exact" }, "swapType"],
  [
    "sourceAsset over 258 characters",
    { ...valid, sourceAsset: `eip155:1/erc20:${"a".repeat(300)}` },
    "sourceAsset",
  ],
  ["amount over 78 digits", { ...valid, amount: "9".repeat(65_000) }, "amount"],
  ["recipient over 128 characters", { ...valid, recipient: `0x${"a".repeat(127)}` }, "recipient"],
  ["sourceAccount over 128 characters", { ...valid, sourceAccount: "b".repeat(129) }, "sourceAccount"],
  [
    "a 60,000-character Solana recipient",
    {
      ...valid,
      destinationAsset: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501",
      recipient: "2".repeat(60_000),
    },
    "recipient",
  ],
];

for (const [rule, body, reference] of quoteRows) {
  test(`quote request: ${rule} (EIN0001, reference ${reference})`, () => {
    assert.deepEqual(
      refusal(() => decodeBody(quoteRequestBody, body)),
      { code: "EIN0001", reference },
    );
  });
}

test("EVM recipients and sourceAccounts are not format-checked at quote time", () => {
  const decoded = decodeBody(quoteRequestBody, {
    ...valid,
    recipient: "not-an-address",
    sourceAccount: "0xZZ",
  });
  assert.equal(decoded.recipient, "not-an-address");
});

test("a Solana recipient that decodes to 32 bytes is admitted", () => {
  const body = {
    ...valid,
    destinationAsset: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501",
    recipient: SOLANA_KEY,
  };
  assert.equal(decodeBody(quoteRequestBody, body).recipient, SOLANA_KEY);
});

test("an account of exactly 128 characters, the bound, is admitted on an EVM leg", () => {
  const account = `0x${"a".repeat(126)}`;
  const decoded = decodeBody(quoteRequestBody, { ...valid, recipient: account, sourceAccount: account });
  assert.equal(decoded.recipient, account);
  assert.equal(decoded.sourceAccount, account);
});

test("the longest Solana key (44 base58 characters, 32 bytes of 0xff) is admitted", () => {
  const longest = "JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG";
  const body = {
    ...valid,
    destinationAsset: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501",
    recipient: longest,
  };
  assert.equal(decodeBody(quoteRequestBody, body).recipient, longest);
});

test("a Solana source without sourceAccount is admitted: the rule runs only on a value", () => {
  const body = { ...valid, sourceAsset: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501" };
  assert.equal(decodeBody(quoteRequestBody, body).sourceAccount, undefined);
});

test("only the first failing field in struct order is reported", () => {
  const body = { sourceAsset: valid.sourceAsset, destinationAsset: "bad", amount: "0", swapType: "x" };
  assert.deepEqual(
    refusal(() => decodeBody(quoteRequestBody, body)),
    {
      code: "EIN0001",
      reference: "destinationAsset",
    },
  );
});

const prepareRows: Array<[string, Record<string, unknown>, string]> = [
  ["quote request fields come first", { amount: "0", preparationId: "" }, "sourceAsset"],
  ["preparationId is required", { ...valid, provider: "p1" }, "preparationId"],
  [
    "preparationId allows only letters, digits, dot, underscore, hyphen",
    { ...valid, preparationId: "a/b", provider: "p1" },
    "preparationId",
  ],
  [
    "preparationId is at most 128 characters",
    { ...valid, preparationId: "a".repeat(129), provider: "p1" },
    "preparationId",
  ],
  ["provider is required", { ...valid, preparationId: "prep-1" }, "provider"],
];

for (const [rule, body, reference] of prepareRows) {
  test(`prepare request: ${rule} (EIN0001, reference ${reference})`, () => {
    assert.deepEqual(
      refusal(() => decodeBody(prepareQuoteRequestBody, body)),
      { code: "EIN0001", reference },
    );
  });
}

test("a valid prepare request decodes with preparationId and provider", () => {
  const decoded = decodeBody(prepareQuoteRequestBody, {
    ...valid,
    preparationId: "a.b_c-1",
    provider: "oif-solver",
  });
  assert.equal(decoded.preparationId, "a.b_c-1");
  assert.equal(decoded.provider, "oif-solver");
});

const openForRows: Array<[string, Record<string, unknown>, string]> = [
  ["quoteRequestId is required", { quoteId: "q" }, "quoteRequestId"],
  ["quoteId is required", { quoteRequestId: "r" }, "quoteId"],
  ["quoteId must not be empty", { quoteRequestId: "r", quoteId: "" }, "quoteId"],
];

for (const [rule, body, reference] of openForRows) {
  test(`openFor request: ${rule} (EIN0001, reference ${reference})`, () => {
    assert.deepEqual(
      refusal(() => decodeBody(openForRequestBody, body)),
      { code: "EIN0001", reference },
    );
  });
}

test("an openFor request without signature decodes (proxy lanes)", () => {
  assert.deepEqual(decodeBody(openForRequestBody, { quoteRequestId: "r", quoteId: "q" }), {
    quoteRequestId: "r",
    quoteId: "q",
  });
});

const HASH = `0x${"ab".repeat(32)}`;
const orderRows: Array<[string, Record<string, unknown>, string]> = [
  ["quoteId is required", { artifactHash: HASH }, "quoteId"],
  ["artifactHash is required", { quoteId: "q" }, "artifactHash"],
  ["artifactHash is 32 bytes of lowercase 0x hex", { quoteId: "q", artifactHash: "0x1234" }, "artifactHash"],
];

for (const [rule, body, reference] of orderRows) {
  test(`POST /order request: ${rule} (EIN0001, reference ${reference})`, () => {
    assert.deepEqual(
      refusal(() => decodeBody(orderCreateRequestBody, body)),
      { code: "EIN0001", reference },
    );
  });
}

test("POST /order signature fields are not form-checked, so a repeat with any of them still decodes", () => {
  const decoded = decodeBody(orderCreateRequestBody, {
    quoteId: "q",
    artifactHash: HASH,
    scheme: "nonsense",
  });
  assert.equal(decoded.scheme, "nonsense");
});

const signatureRows: Array<[string, Record<string, string | undefined>, string]> = [
  ["none of the three is an unsigned registration", {}, "none"],
  ["empty strings count as absent", { signature: "", signer: "", scheme: "" }, "none"],
  ["signature alone is partial", { signature: "0x01" }, "partial"],
  ["signer and scheme without signature is partial", { signer: "0xa", scheme: "eip191" }, "partial"],
  ["all three is complete", { signature: "0x01", signer: "0xa", scheme: "eip191" }, "complete"],
];

for (const [rule, body, kind] of signatureRows) {
  test(`signature set: ${rule}`, () => {
    assert.equal(signatureSetOf(body).kind, kind);
  });
}

test("a body schema refuses a field named __proto__ at definition time", () => {
  assert.throws(() =>
    defineRequestBody(z.object({ ["__proto__"]: z.string() } as Record<string, z.ZodString>)),
  );
});
