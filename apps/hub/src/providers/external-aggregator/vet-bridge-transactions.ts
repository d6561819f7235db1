import { bridgeAbi } from "@hub/chain";
import { decodeFunctionData, encodeFunctionData, formatUnits, type Hex } from "viem";
import type { EvmQuoteRoute } from "../../quotes/resolve-quote-route.js";
import { type ExternalAnswer, reject, sameAddress } from "./external-answer.js";
import type { OpenFlowDeposit } from "./open-flow-template.js";

/**
 * executionTx of an open-flow answer as the hub discloses it: chain-domain chain ids, addresses and
 * calldata lowercase, and a step description the hub writes from the decoded calldata.
 */
export interface ExternalExecutionTx {
  approvals: { chainId: string; token: string; spender: string; amount: string }[];
  steps: { chainId: string; to: string; data: string; value: string; description: string }[];
}

/** The chain id an external executionTx must carry: the source chain's CAIP-2 string, exactly. */
function checkChainId(chainId: unknown, route: EvmQuoteRoute, where: string): string {
  if (chainId !== route.source.chain.chainDomain) {
    reject(
      "chain-id",
      `${where} chainId ${JSON.stringify(chainId)} is not ${route.source.chain.chainDomain}`,
    );
  }
  return chainId;
}

/**
 * What a bridge answer's receive side can be held to. Bridge.deposit names neither a destination token
 * nor a minimum output, so both are the aggregator's word: the destination must be a declared token of
 * the same symbol (the catalog has no counterpart table), and the destination chain must have a
 * catalog bridge, or the release could never be observed.
 */
function vetBridgeDestination(route: EvmQuoteRoute): void {
  const { source, destination } = route;
  const declared = destination.chain.assets.some(
    (asset) => asset.key === destination.asset.key && asset.address !== undefined,
  );
  if (!declared)
    reject("output", `${destination.asset.key} is not a declared token of ${destination.chain.chainDomain}`);
  if (destination.asset.symbol !== source.asset.symbol)
    reject(
      "output",
      `a bridge of ${source.asset.symbol} cannot deliver ${destination.asset.symbol} (${destination.asset.key})`,
    );
  if (destination.chain.bridge === undefined)
    reject("deposit", `the catalog names no bridge on ${destination.chain.chainDomain} to release from`);
}

/**
 * The step's words, written by the hub from the decoded calldata: the aggregator's own description is
 * never shown, as a wallet user reads it as the hub's.
 */
function depositDescription(
  route: EvmQuoteRoute,
  bridge: string,
  deposit: { amount: bigint; destinationChainId: bigint; recipient: string },
): string {
  const { asset } = route.source;
  const amount = `${formatUnits(deposit.amount, asset.decimals)} ${asset.symbol}`;
  const recipient = deposit.recipient.toLowerCase();
  return `Deposit ${amount} into the bridge at ${bridge} for eip155:${deposit.destinationChainId}, recipient ${recipient}`;
}

/**
 * One approval of the source token to the catalog's bridge, and one Bridge.deposit of the request to
 * it, whose calldata is exactly the canonical encoding of its arguments. The disclosed transactions
 * are rebuilt from the vetted values: lowercase addresses and the hub's own description.
 */
export function vetBridgeTransactions(
  answer: ExternalAnswer,
  route: EvmQuoteRoute,
): { executionTx: ExternalExecutionTx; deposit: OpenFlowDeposit } {
  const { source, destination } = route;
  if (source.chain.chainId === destination.chain.chainId)
    reject("kind", "a bridge answer for a same-chain request");
  vetBridgeDestination(route);
  const bridge = source.chain.bridge?.toLowerCase() as `0x${string}` | undefined;
  if (bridge === undefined) reject("deposit", `the catalog names no bridge on ${source.chain.chainDomain}`);
  const tx = answer.executionTx;
  if (tx === undefined) reject("deposit", "a bridge answer without executionTx");

  if (tx.approvals.length !== 1) reject("approval", `${tx.approvals.length} approvals, not one`);
  const approval = tx.approvals[0]!;
  const approvalChain = checkChainId(approval.chainId, route, "approval");
  if (!sameAddress(approval.token, source.token))
    reject("approval", `approval of token ${approval.token}, not the source token ${source.token}`);
  if (!sameAddress(approval.spender, bridge))
    reject("approval", `approval to ${approval.spender}, not the bridge ${bridge}`);
  if (approval.amount !== route.amount.toString())
    reject("approval", `approval of ${approval.amount}, not the amount ${route.amount}`);

  if (tx.steps.length !== 1) reject("deposit", `${tx.steps.length} steps, not one`);
  const step = tx.steps[0]!;
  const stepChain = checkChainId(step.chainId, route, "step");
  if (!sameAddress(step.to, bridge)) reject("deposit", `step to ${step.to}, not the bridge ${bridge}`);
  if (step.value !== "0") reject("deposit", `step value ${step.value}, not 0`);
  let call: ReturnType<typeof decodeFunctionData<typeof bridgeAbi>>;
  try {
    call = decodeFunctionData({ abi: bridgeAbi, data: step.data as Hex });
  } catch {
    reject("deposit", "step calldata is not a Bridge call");
  }
  if (call.functionName !== "deposit") reject("deposit", `step calls ${call.functionName}, not deposit`);
  const args = call.args as readonly [`0x${string}`, bigint, bigint, `0x${string}`, `0x${string}`];
  // viem decodes past trailing bytes and dirty address padding, which the contract would not accept.
  const canonical = encodeFunctionData({ abi: bridgeAbi, functionName: "deposit", args });
  if (canonical.toLowerCase() !== step.data.toLowerCase())
    reject("deposit", "step calldata is not the canonical encoding of its deposit arguments");
  const [token, amount, destinationChainId, recipient, ref] = args;
  if (!sameAddress(token, source.token)) reject("deposit", `deposit of token ${token}, not ${source.token}`);
  if (amount !== route.amount) reject("deposit", `deposit of ${amount}, not the amount ${route.amount}`);
  if (destinationChainId !== BigInt(destination.chain.chainId))
    reject("deposit", `deposit to chain ${destinationChainId}, not ${destination.chain.chainId}`);
  if (!sameAddress(recipient, route.recipient))
    reject("deposit", `deposit for ${recipient}, not the recipient ${route.recipient}`);
  if (answer.depositRef !== undefined && !sameAddress(answer.depositRef, ref))
    reject("deposit", `deposit ref ${ref} is not the answer's depositRef ${answer.depositRef}`);

  return {
    executionTx: {
      approvals: [{ chainId: approvalChain, token: source.token, spender: bridge, amount: approval.amount }],
      steps: [
        {
          chainId: stepChain,
          to: bridge,
          data: canonical.toLowerCase(),
          value: "0",
          description: depositDescription(route, bridge, { amount, destinationChainId, recipient }),
        },
      ],
    },
    deposit: {
      bridge,
      token: source.token,
      amount: amount.toString(),
      destinationChainId: Number(destinationChainId),
      recipient: route.recipient,
      ref: ref.toLowerCase() as `0x${string}`,
    },
  };
}
