import type { MandateOutput, StandardOrder, TypedDataHasher } from "@hub/chain";
import { type Hex, hashTypedData } from "viem";
import type { OifQuoteResponse } from "./oif-quote-response.js";
import { QuoteRejection } from "../../quotes/quote-rejection.js";
import type { EvmSourceRoute } from "../../quotes/resolve-quote-route.js";
import { PERMIT2_WIRE_TYPES, permit2Hasher, typesAreExactly } from "./expected-typed-data-types.js";
import {
  readAddress,
  readArray,
  readBytes,
  readBytes32,
  readObject,
  readUint,
  requireKeys,
} from "./typed-data-values.js";

/** EIP-712 typed data as eth_signTypedData_v4 takes it. */
export interface SignTypedData {
  domain: Record<string, unknown>;
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** A vetted order: the StandardOrder it opens, the typed data the user signs (rebuilt by us) and its hash. */
export interface VettedOrder {
  order: StandardOrder;
  signPayload: SignTypedData;
  typedDataHash: Hex;
}

const OUTPUT_KEYS = [
  "oracle",
  "settler",
  "chainId",
  "token",
  "amount",
  "recipient",
  "callbackData",
  "context",
];

/** A MandateOutput as JSON carries it: exactly its eight keys, bytes32 as 0x hex, uints as decimals. */
export function readOutput(value: unknown, what: string): MandateOutput {
  const output = readObject(value, what, "output");
  requireKeys(output, OUTPUT_KEYS, what, "output");
  return {
    oracle: readBytes32(output.oracle, `${what}.oracle`, "oracle"),
    settler: readBytes32(output.settler, `${what}.settler`, "settler"),
    chainId: readUint(output.chainId, `${what}.chainId`, "output"),
    token: readBytes32(output.token, `${what}.token`, "output"),
    amount: readUint(output.amount, `${what}.amount`, "amount"),
    recipient: readBytes32(output.recipient, `${what}.recipient`, "recipient"),
    callbackData: readBytes(output.callbackData, `${what}.callbackData`, "output"),
    context: readBytes(output.context, `${what}.context`, "output"),
  };
}

/** The Permit2 typed data for an order, as the hub discloses it (uint256 as decimal strings). */
export function permit2SignPayload(
  order: StandardOrder,
  chain: { chainId: number; permit2: string; escrow: string },
): SignTypedData {
  return {
    domain: { name: "Permit2", chainId: chain.chainId, verifyingContract: chain.permit2.toLowerCase() },
    types: PERMIT2_WIRE_TYPES,
    primaryType: "PermitBatchWitnessTransferFrom",
    message: {
      permitted: order.inputs.map(([token, amount]) => ({
        token: `0x${token.toString(16).padStart(40, "0")}`,
        amount: amount.toString(),
      })),
      spender: chain.escrow.toLowerCase(),
      nonce: order.nonce.toString(),
      deadline: order.fillDeadline.toString(),
      witness: {
        user: order.user.toLowerCase(),
        expires: order.expires,
        inputOracle: order.inputOracle.toLowerCase(),
        outputs: order.outputs.map((o) => ({
          oracle: o.oracle,
          settler: o.settler,
          chainId: o.chainId.toString(),
          token: o.token,
          amount: o.amount.toString(),
          recipient: o.recipient,
          callbackData: o.callbackData,
          context: o.context,
        })),
      },
    },
  };
}

/**
 * Holds the received typed data to the hub's rebuilt one, whose hash the caller computed. When the
 * received domain and message hold the values the hub rebuilt (the types are checked before), they
 * hash the same and nothing is hashed again; otherwise (another spelling of a value, such as a
 * checksummed address) viem hashes the received payload as it is.
 */
export function holdReceivedTypedData(
  payload: OifQuoteResponse["order"]["payload"],
  rebuilt: SignTypedData,
  rebuiltHash: Hex,
  hasher: TypedDataHasher,
): void {
  if (hasher.holdsSameValues(payload, rebuilt)) return;
  if (hashReceivedTypedData(payload, rebuilt.types) !== rebuiltHash) {
    throw new QuoteRejection(
      "typed-data-hash",
      "the received typed data hashes differently from the rebuilt one",
    );
  }
}

/** viem's hash of typed data as received; a payload viem cannot encode is not well formed. */
function hashReceivedTypedData(
  payload: OifQuoteResponse["order"]["payload"],
  fallbackTypes: SignTypedData["types"],
): Hex {
  try {
    return hashTypedData({
      domain: payload.domain,
      types: (payload.types ?? fallbackTypes) as SignTypedData["types"],
      primaryType: payload.primaryType,
      message: payload.message,
    } as Parameters<typeof hashTypedData>[0]);
  } catch (error) {
    throw new QuoteRejection(
      "typed-data-hash",
      `typed data does not encode: ${(error as Error).message.split("\n")[0]}`,
    );
  }
}

/**
 * oif-escrow-v0: the Permit2 PermitBatchWitnessTransferFrom. Checks the domain (Permit2 on the source
 * chain at the catalog's address), the types, the spender (the catalog's escrow), rebuilds the
 * StandardOrder the escrow will open from the message, and recomputes the typed-data hash.
 */
export function vetPermit2Order(quote: OifQuoteResponse, route: EvmSourceRoute): VettedOrder {
  const { payload } = quote.order;
  const source = route.source.chain;
  if (payload.signatureType !== undefined && payload.signatureType !== "eip712") {
    throw new QuoteRejection("types", `signatureType ${payload.signatureType} on a Permit2 order`);
  }
  if (payload.primaryType !== "PermitBatchWitnessTransferFrom") {
    throw new QuoteRejection("types", `primaryType ${payload.primaryType}`);
  }
  if (payload.types !== undefined && !typesAreExactly(payload.types, PERMIT2_WIRE_TYPES)) {
    throw new QuoteRejection("types", "types are not the Permit2 batch witness structure");
  }
  const { domain, message } = payload;
  requireKeys(domain, ["name", "chainId", "verifyingContract"], "domain", "domain");
  if (domain.name !== "Permit2") throw new QuoteRejection("domain", `domain name ${String(domain.name)}`);
  if (readUint(domain.chainId, "domain.chainId", "domain") !== BigInt(source.chainId)) {
    throw new QuoteRejection("domain", `domain chainId ${String(domain.chainId)} is not ${source.chainId}`);
  }
  if (readAddress(domain.verifyingContract, "domain.verifyingContract", "domain") !== source.permit2) {
    throw new QuoteRejection(
      "domain",
      `verifyingContract ${String(domain.verifyingContract)} is not Permit2`,
    );
  }

  requireKeys(message, ["permitted", "spender", "nonce", "deadline", "witness"], "message", "malformed");
  if (readAddress(message.spender, "spender", "spender") !== source.inputSettlers.escrow) {
    throw new QuoteRejection("spender", `spender ${String(message.spender)} is not the catalog's escrow`);
  }
  const permitted = readObject(
    readArray(message.permitted, "permitted", "input", 1)[0],
    "permitted[0]",
    "input",
  );
  requireKeys(permitted, ["token", "amount"], "permitted[0]", "input");
  const witness = readObject(message.witness, "witness", "malformed");
  requireKeys(witness, ["user", "expires", "inputOracle", "outputs"], "witness", "malformed");
  const outputs = readArray(witness.outputs, "witness.outputs", "output", 1);

  const order: StandardOrder = {
    user: readAddress(witness.user, "witness.user", "user"),
    nonce: readUint(message.nonce, "nonce", "nonce"),
    originChainId: BigInt(source.chainId),
    expires: Number(readUint(witness.expires, "witness.expires", "deadlines", 32)),
    fillDeadline: Number(readUint(message.deadline, "deadline", "deadlines", 32)),
    inputOracle: readAddress(witness.inputOracle, "witness.inputOracle", "oracle"),
    inputs: [
      [
        BigInt(readAddress(permitted.token, "permitted[0].token", "input")),
        readUint(permitted.amount, "permitted[0].amount", "amount"),
      ],
    ],
    outputs: outputs.map((output, i) => readOutput(output, `witness.outputs[${i}]`)),
  };
  const signPayload = permit2SignPayload(order, {
    chainId: source.chainId,
    permit2: source.permit2,
    escrow: source.inputSettlers.escrow,
  });
  const typedDataHash = permit2Hasher.hash(signPayload);
  holdReceivedTypedData(payload, signPayload, typedDataHash, permit2Hasher);
  return { order, signPayload, typedDataHash };
}
