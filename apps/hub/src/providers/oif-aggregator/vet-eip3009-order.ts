import { orderIdentifier, type StandardOrder } from "@hub/chain";
import type { Hex } from "viem";
import { oifFormOf } from "../../chains/chain-families.js";
import { decodeInteropAddress } from "../../chains/evm/interop-address.js";
import type { OifQuoteResponse } from "./oif-quote-response.js";
import { QuoteRejection } from "../../quotes/quote-rejection.js";
import type { EvmSourceRoute } from "../../quotes/resolve-quote-route.js";
import { EIP3009_WIRE_TYPES, eip3009Hasher, typesAreExactly } from "./expected-typed-data-types.js";
import {
  readAddress,
  readArray,
  readBytes32,
  readObject,
  readUint,
  requireKeys,
} from "./typed-data-values.js";
import { holdReceivedTypedData, type SignTypedData, type VettedOrder } from "./vet-permit2-order.js";

/** A vetted EIP-3009 order also carries its on-chain id, recomputed by us. */
export interface VettedEip3009Order extends VettedOrder {
  onchainOrderId: Hex;
}

/** An account in the 3009 metadata: a plain address or an ERC-7930 interop address. */
function metadataAccount(
  value: unknown,
  what: string,
  reason: "user" | "input" | "output" | "recipient" | "oracle" | "settler",
): `0x${string}` {
  const interop = decodeInteropAddress(value);
  if (interop) return interop.address;
  return readAddress(value, what, reason);
}

/** A lowercase 20-byte address left-padded to bytes32, as addressToBytes32 pads it. */
function evmBytes32(address: `0x${string}`): `0x${string}` {
  return `0x000000000000000000000000${address.slice(2)}`;
}

/**
 * An account of the metadata's output as bytes32: in the destination family's own form or bytes32
 * hex, or else (an EVM destination) an EVM address, plain or interop.
 */
function outputAccount(
  value: unknown,
  what: string,
  reason: "output" | "recipient" | "oracle" | "settler",
  route: EvmSourceRoute,
): `0x${string}` {
  const form = oifFormOf(route.destination);
  if (!form.outputAccount) return evmBytes32(metadataAccount(value, what, reason));
  const read = form.outputAccount(value, route.destination);
  if (read === undefined) return readBytes32(value, what, reason);
  if (typeof read === "object") throw new QuoteRejection(reason, `${what} ${read.refusal}`);
  return read;
}

/** The ReceiveWithAuthorization typed data for an order, under the token's domain as the upstream named it. */
export function eip3009SignPayload(
  order: StandardOrder,
  orderId: Hex,
  token: { name: string; version: string; chainId: number; address: string },
  escrow: string,
): SignTypedData {
  const input = order.inputs[0]!;
  return {
    domain: {
      name: token.name,
      version: token.version,
      chainId: token.chainId,
      verifyingContract: token.address.toLowerCase(),
    },
    types: EIP3009_WIRE_TYPES,
    primaryType: "ReceiveWithAuthorization",
    message: {
      from: order.user.toLowerCase(),
      to: escrow.toLowerCase(),
      value: input[1].toString(),
      validAfter: "0",
      validBefore: order.fillDeadline.toString(),
      nonce: orderId,
    },
  };
}

function checkEip3009Types(payload: OifQuoteResponse["order"]["payload"]): void {
  const { signatureType } = payload;
  if (signatureType !== undefined && signatureType !== "eip712" && signatureType !== "eip3009") {
    throw new QuoteRejection("types", `signatureType ${payload.signatureType} on an EIP-3009 order`);
  }
  if (payload.primaryType !== "ReceiveWithAuthorization") {
    throw new QuoteRejection("types", `primaryType ${payload.primaryType}`);
  }
  if (payload.types !== undefined && !typesAreExactly(payload.types, EIP3009_WIRE_TYPES)) {
    throw new QuoteRejection("types", "types are not the ReceiveWithAuthorization structure");
  }
}

/** The StandardOrder the metadata describes, every account and amount read and held to the route. */
function rebuildEip3009Order(metadataValue: unknown, route: EvmSourceRoute): StandardOrder {
  const source = route.source.chain;
  const metadata = readObject(metadataValue, "order.metadata", "metadata");
  const interopUser = decodeInteropAddress(metadata.user);
  const user = interopUser ? interopUser.address : readAddress(metadata.user, "metadata.user", "user");
  if (interopUser && interopUser.chainId !== source.chainId) {
    throw new QuoteRejection("metadata", `metadata.user names chain ${interopUser.chainId}`);
  }
  if (readUint(metadata.originChainId, "metadata.originChainId", "metadata") !== BigInt(source.chainId)) {
    throw new QuoteRejection(
      "metadata",
      `originChainId ${String(metadata.originChainId)} is not ${source.chainId}`,
    );
  }
  const input = readObject(
    readArray(metadata.inputs, "metadata.inputs", "input", 1)[0],
    "metadata.inputs[0]",
    "input",
  );
  const output = readObject(
    readArray(metadata.outputs, "metadata.outputs", "output", 1)[0],
    "metadata.outputs[0]",
    "output",
  );
  if (readUint(input.chainId, "metadata.inputs[0].chainId", "input") !== BigInt(source.chainId)) {
    throw new QuoteRejection("input", "the input is not on the source chain");
  }
  if (input.user !== undefined && metadataAccount(input.user, "metadata.inputs[0].user", "user") !== user) {
    throw new QuoteRejection("user", "the input's user is not the order's user");
  }
  for (const key of Object.keys(output)) {
    if (!["chainId", "asset", "amount", "receiver", "oracle", "settler"].includes(key)) {
      throw new QuoteRejection("output", `metadata output carries ${key}, which the hub cannot rebuild`);
    }
  }
  return {
    user,
    nonce: readUint(metadata.nonce, "metadata.nonce", "nonce"),
    originChainId: BigInt(source.chainId),
    expires: Number(readUint(metadata.expires, "metadata.expires", "deadlines", 32)),
    fillDeadline: Number(readUint(metadata.fillDeadline, "metadata.fillDeadline", "deadlines", 32)),
    inputOracle: metadataAccount(metadata.inputOracle, "metadata.inputOracle", "oracle"),
    inputs: [
      [
        BigInt(metadataAccount(input.asset, "metadata.inputs[0].asset", "input")),
        readUint(input.amount, "metadata.inputs[0].amount", "amount"),
      ],
    ],
    outputs: [
      {
        oracle: outputAccount(output.oracle, "metadata.outputs[0].oracle", "oracle", route),
        settler: outputAccount(output.settler, "metadata.outputs[0].settler", "settler", route),
        chainId: readUint(output.chainId, "metadata.outputs[0].chainId", "output"),
        token: outputAccount(output.asset, "metadata.outputs[0].asset", "output", route),
        amount: readUint(output.amount, "metadata.outputs[0].amount", "amount"),
        recipient: outputAccount(output.receiver, "metadata.outputs[0].receiver", "recipient", route),
        callbackData: "0x",
        context: "0x",
      },
    ],
  };
}

/** The token's domain and the authorization's message, held to the order and its recomputed id. */
function checkAuthorization(
  payload: OifQuoteResponse["order"]["payload"],
  order: StandardOrder,
  onchainOrderId: Hex,
  route: EvmSourceRoute,
): { name: string; version: string } {
  const source = route.source.chain;
  const { domain, message } = payload;
  requireKeys(domain, ["name", "version", "chainId", "verifyingContract"], "domain", "domain");
  if (typeof domain.name !== "string" || typeof domain.version !== "string") {
    throw new QuoteRejection("domain", "the token's domain name and version must be strings");
  }
  if (readUint(domain.chainId, "domain.chainId", "domain") !== BigInt(source.chainId)) {
    throw new QuoteRejection("domain", `domain chainId ${String(domain.chainId)} is not ${source.chainId}`);
  }
  if (readAddress(domain.verifyingContract, "domain.verifyingContract", "domain") !== route.source.token) {
    throw new QuoteRejection(
      "domain",
      `verifyingContract ${String(domain.verifyingContract)} is not the source token`,
    );
  }
  requireKeys(message, ["from", "to", "value", "validAfter", "validBefore", "nonce"], "message", "malformed");
  if (readAddress(message.from, "from", "user") !== order.user) {
    throw new QuoteRejection("user", `from ${String(message.from)} is not the order's user`);
  }
  if (readAddress(message.to, "to", "spender") !== source.inputSettlers.escrow) {
    throw new QuoteRejection("spender", `to ${String(message.to)} is not the catalog's escrow`);
  }
  if (readUint(message.value, "value", "amount") !== order.inputs[0]![1]) {
    throw new QuoteRejection("amount", `value ${String(message.value)} is not the order's input`);
  }
  if (readUint(message.validAfter, "validAfter", "deadlines") !== 0n) {
    throw new QuoteRejection("deadlines", "validAfter is not 0");
  }
  if (readUint(message.validBefore, "validBefore", "deadlines") !== BigInt(order.fillDeadline)) {
    throw new QuoteRejection("deadlines", "validBefore is not the order's fillDeadline");
  }
  if (readBytes32(message.nonce, "nonce", "nonce") !== onchainOrderId) {
    throw new QuoteRejection("nonce", `nonce ${String(message.nonce)} is not the order id ${onchainOrderId}`);
  }

  return { name: domain.name, version: domain.version };
}

/**
 * oif-3009-v0: rebuilds the StandardOrder from the quote's metadata, recomputes its on-chain id
 * (orderIdentifier at the catalog's escrow), and holds the ReceiveWithAuthorization to it: the token's
 * domain on the source chain, from = user, to = escrow, value = the input, validAfter 0, validBefore =
 * fillDeadline, nonce = the recomputed id. The token's domain name and version are not in the catalog:
 * a wrong one yields a signature the token refuses, never a transfer elsewhere.
 */
export function vetEip3009Order(quote: OifQuoteResponse, route: EvmSourceRoute): VettedEip3009Order {
  const { payload } = quote.order;
  const source = route.source.chain;
  checkEip3009Types(payload);
  const order = rebuildEip3009Order(quote.order.metadata, route);
  const onchainOrderId = orderIdentifier(order, source.chainId, source.inputSettlers.escrow as `0x${string}`);
  const { name, version } = checkAuthorization(payload, order, onchainOrderId, route);
  const signPayload = eip3009SignPayload(
    order,
    onchainOrderId,
    { name, version, chainId: source.chainId, address: route.source.token },
    source.inputSettlers.escrow,
  );
  const typedDataHash = eip3009Hasher.hash(signPayload);
  holdReceivedTypedData(payload, signPayload, typedDataHash, eip3009Hasher);
  return { order, signPayload, typedDataHash, onchainOrderId };
}
