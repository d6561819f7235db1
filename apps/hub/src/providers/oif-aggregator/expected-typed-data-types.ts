import { createTypedDataHasher, permit2WitnessTypes, receiveWithAuthorizationTypes } from "@hub/chain";
import { freezeCanonicalJson } from "@hub/contract";

type WireTypes = Record<string, { name: string; type: string }[]>;

// Frozen: every disclosure's payload holds these very objects, and their canonical JSON is written once.
function wire(types: Record<string, readonly { name: string; type: string }[]>): WireTypes {
  return freezeCanonicalJson(
    Object.fromEntries(Object.entries(types).map(([name, fields]) => [name, fields.map((f) => ({ ...f }))])),
  );
}

/** The Permit2 batch witness types the escrow verifies, with the domain's own type as wallets take it. */
export const PERMIT2_WIRE_TYPES: WireTypes = wire({
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
  ...permit2WitnessTypes,
});

/** ReceiveWithAuthorization under a token's full domain. */
export const EIP3009_WIRE_TYPES: WireTypes = wire({
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "version", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
  ...receiveWithAuthorizationTypes,
});

/** The EIP-712 hash of typed data the hub rebuilt under each structure (type hashes and domains kept). */
export const permit2Hasher = createTypedDataHasher(PERMIT2_WIRE_TYPES);
export const eip3009Hasher = createTypedDataHasher(EIP3009_WIRE_TYPES);

// Each expected structure's type names but the domain's own, listed once.
const requiredNames = new WeakMap<WireTypes, string[]>();

/**
 * True when an upstream's `types` are exactly the expected structure: the same type names, each with
 * the same fields in the same order; the domain's own type may be left out (wallets derive it).
 */
export function typesAreExactly(given: unknown, expected: WireTypes): boolean {
  if (typeof given !== "object" || given === null || Array.isArray(given)) return false;
  const names = Object.keys(given);
  let required = requiredNames.get(expected);
  if (required === undefined) {
    required = Object.keys(expected).filter((name) => name !== "EIP712Domain");
    requiredNames.set(expected, required);
  }
  for (const name of required) if (!names.includes(name)) return false;
  for (const name of names) {
    const fields = (given as Record<string, unknown>)[name];
    const want = expected[name];
    if (!want || !Array.isArray(fields) || fields.length !== want.length) return false;
    for (let i = 0; i < fields.length; i += 1) {
      // As Array.prototype.every: a hole is skipped.
      if (!(i in fields)) continue;
      const field: unknown = fields[i];
      if (typeof field !== "object" || field === null) return false;
      const record = field as Record<string, unknown>;
      // No own enumerable key but name and type (what an object rest of the two would leave empty).
      for (const key of Object.keys(record)) if (key !== "name" && key !== "type") return false;
      if (record.name !== want[i]!.name || record.type !== want[i]!.type) return false;
    }
  }
  return true;
}
