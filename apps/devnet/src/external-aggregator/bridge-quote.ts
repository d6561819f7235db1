import { bridgeAbi } from "@hub/chain";
import { encodeFunctionData, erc20Abi, isAddressEqual, keccak256, stringToBytes } from "viem";
import { bridgeOutputAmount } from "../bridge-output-amount.js";
import { destinationToken } from "../relayer/destination-token.js";
import { ExternalAggregatorError } from "./external-aggregator-error.js";
import { type ExternalAggregatorState, issueQuoteFields } from "./external-aggregator-state.js";
import {
  type ExternalBridgeQuote,
  type ExternalQuoteRequest,
  externalExecutionClasses,
} from "./external-quote.js";
import type { ParsedAsset } from "./quoted-asset.js";

/** A cross-chain transfer through the bridge, with the approval and the deposit the wallet sends. */
export async function bridgeQuote(
  state: ExternalAggregatorState,
  request: ExternalQuoteRequest,
  source: ParsedAsset,
  destination: ParsedAsset,
  amountIn: bigint,
  symbol: string,
): Promise<ExternalBridgeQuote> {
  const sourceToken = source.address;
  const counterpart =
    sourceToken && destinationToken(state.manifest, source.chainId, sourceToken, destination.chainId);
  if (
    !sourceToken ||
    !counterpart ||
    !destination.address ||
    !isAddressEqual(counterpart, destination.address)
  )
    throw new ExternalAggregatorError(
      400,
      "NO_ROUTE",
      "the destination asset is not the source token's counterpart",
    );
  const amountOut = bridgeOutputAmount(amountIn, state.feeBps);
  if (amountOut <= 0n)
    throw new ExternalAggregatorError(400, "NO_ROUTE", "the amount does not cover the fee");
  const sourceChain = state.clients.get(source.chainId).chain;
  const destinationChain = state.clients.get(destination.chainId);
  const liquidity = await destinationChain.publicClient.readContract({
    address: counterpart,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [destinationChain.chain.contracts.bridge],
  });
  if (liquidity < amountOut)
    throw new ExternalAggregatorError(
      400,
      "INSUFFICIENT_LIQUIDITY",
      "the bridge cannot release that much now",
    );

  const fields = issueQuoteFields(state, request, amountIn, amountOut, amountIn - amountOut);
  const depositRef = keccak256(stringToBytes(`devnet-external:${fields.quoteId}`));
  const bridge = sourceChain.contracts.bridge;
  return {
    ...fields,
    kind: "bridge",
    executionClass: externalExecutionClasses.bridge,
    feeBps: state.feeBps,
    depositRef,
    executionTx: {
      approvals: [
        {
          chainId: sourceChain.chainDomain,
          token: sourceToken,
          spender: bridge,
          amount: amountIn.toString(),
        },
      ],
      steps: [
        {
          chainId: sourceChain.chainDomain,
          to: bridge,
          data: encodeFunctionData({
            abi: bridgeAbi,
            functionName: "deposit",
            args: [sourceToken, amountIn, BigInt(destination.chainId), fields.recipient, depositRef],
          }),
          value: "0",
          description: `Deposit ${amountIn} ${symbol} into the bridge for ${destination.chainDomain}`,
        },
      ],
    },
  };
}
