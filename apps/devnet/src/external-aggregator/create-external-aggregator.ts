import { randomBytes } from "node:crypto";
import { bridgeAbi, type DevnetManifest } from "@hub/chain";
import type { Clock } from "@hub/clock";
import type { Catalog } from "@hub/contract";
import {
  encodeFunctionData,
  erc20Abi,
  getAddress,
  isAddressEqual,
  keccak256,
  maxUint256,
  stringToBytes,
} from "viem";
import { bridgeOutputAmount } from "../bridge-output-amount.js";
import type { ChainClients } from "../create-chain-clients.js";
import type { Relayer } from "../relayer/create-relayer.js";
import { destinationToken } from "../relayer/destination-token.js";
import { ExternalAggregatorError } from "./external-aggregator-error.js";
import {
  type ExternalBridgeQuote,
  type ExternalQuote,
  type ExternalQuoteRequest,
  type ExternalTransferStatus,
  externalExecutionClasses,
} from "./external-quote.js";

export interface ExternalAggregatorConfig {
  manifest: DevnetManifest;
  catalog: Catalog;
  /** Must equal the relayer's fee: the quote promises what the relayer will release. */
  feeBps: number;
  quoteLifetimeMs?: number;
  provider?: string;
}

export interface ExternalAggregatorDeps {
  clients: ChainClients;
  clock: Clock;
  relayer: Relayer;
}

export interface ExternalAggregator {
  quote(request: ExternalQuoteRequest): Promise<ExternalQuote>;
  getQuote(quoteId: string): ExternalQuote;
  getStatus(quoteId: string): ExternalTransferStatus;
}

interface ParsedAsset {
  chainDomain: string;
  chainId: number;
  address?: `0x${string}`;
}

function parseAsset(key: string): ParsedAsset {
  const [chainDomain = "", asset = ""] = key.split("/");
  const chainId = Number(chainDomain.slice("eip155:".length));
  if (asset.startsWith("erc20:")) {
    return { chainDomain, chainId, address: getAddress(asset.slice("erc20:".length).toLowerCase()) };
  }
  return { chainDomain, chainId };
}

/** The destination amount at a 1:1 rate between two tokens of different decimals (rounded down). */
function atParity(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  return amount / 10n ** BigInt(fromDecimals - toDecimals);
}

/**
 * The external aggregator: a cross-chain transfer of a declared token through the bridge (kind
 * `bridge`, the open-flow lane, with the transactions the wallet sends itself), a same-chain swap of
 * two declared tokens (`solver-swap`) and a same-token transfer (`transfer`); the last two are priced
 * only and disclose nothing to send.
 */
export function createExternalAggregator(
  config: ExternalAggregatorConfig,
  deps: ExternalAggregatorDeps,
): ExternalAggregator {
  const { manifest, catalog } = config;
  const { clients, clock, relayer } = deps;
  const lifetimeMs = config.quoteLifetimeMs ?? 30_000;
  const provider = config.provider ?? "devnet-bridge";
  const quotes = new Map<string, ExternalQuote>();

  function declared(asset: ParsedAsset) {
    const chain = catalog.families.evm.find((entry) => entry.chainId === asset.chainId);
    const entry = chain?.assets.find(
      (candidate) => candidate.address !== undefined && candidate.address === asset.address?.toLowerCase(),
    );
    return chain && entry ? { chain, asset: entry } : undefined;
  }

  function find(quoteId: string): ExternalQuote {
    const quote = quotes.get(quoteId);
    if (!quote) throw new ExternalAggregatorError(404, "QUOTE_NOT_FOUND", `no quote ${quoteId}`);
    return quote;
  }

  function issue(request: ExternalQuoteRequest, amountIn: bigint, amountOut: bigint, feeAmount: bigint) {
    return {
      quoteId: `xq_${randomBytes(16).toString("base64url")}`,
      provider,
      sourceAsset: request.sourceAsset,
      destinationAsset: request.destinationAsset,
      amountIn: amountIn.toString(),
      amountOut: amountOut.toString(),
      feeAmount: feeAmount.toString(),
      recipient: request.recipient as `0x${string}`,
      ...(request.sourceAccount ? { sourceAccount: request.sourceAccount as `0x${string}` } : {}),
      expiresAt: new Date(clock.now() + lifetimeMs).toISOString(),
    };
  }

  async function bridgeQuote(
    request: ExternalQuoteRequest,
    source: ParsedAsset,
    destination: ParsedAsset,
    amountIn: bigint,
    symbol: string,
  ): Promise<ExternalBridgeQuote> {
    const counterpart = destinationToken(manifest, source.chainId, source.address!, destination.chainId);
    if (counterpart === undefined || !isAddressEqual(counterpart, destination.address!))
      throw new ExternalAggregatorError(
        400,
        "NO_ROUTE",
        "the destination asset is not the source token's counterpart",
      );
    const amountOut = bridgeOutputAmount(amountIn, config.feeBps);
    if (amountOut <= 0n)
      throw new ExternalAggregatorError(400, "NO_ROUTE", "the amount does not cover the fee");
    const sourceChain = clients.get(source.chainId).chain;
    const destinationChain = clients.get(destination.chainId);
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

    const fields = issue(request, amountIn, amountOut, amountIn - amountOut);
    const depositRef = keccak256(stringToBytes(`devnet-external:${fields.quoteId}`));
    const bridge = sourceChain.contracts.bridge;
    return {
      ...fields,
      kind: "bridge",
      executionClass: externalExecutionClasses.bridge,
      feeBps: config.feeBps,
      depositRef,
      executionTx: {
        approvals: [
          {
            chainId: sourceChain.chainDomain,
            token: source.address!,
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
              args: [source.address!, amountIn, BigInt(destination.chainId), fields.recipient, depositRef],
            }),
            value: "0",
            description: `Deposit ${amountIn} ${symbol} into the bridge for ${destination.chainDomain}`,
          },
        ],
      },
    };
  }

  return {
    async quote(request) {
      const source = parseAsset(request.sourceAsset);
      const destination = parseAsset(request.destinationAsset);
      const from = declared(source);
      const to = declared(destination);
      if (!from || !to)
        throw new ExternalAggregatorError(
          400,
          "NO_ROUTE",
          "only declared tokens of devnet chains are quoted",
        );
      const amountIn = BigInt(request.amount);
      if (amountIn > maxUint256)
        throw new ExternalAggregatorError(400, "VALIDATION_ERROR", "amount: does not fit in uint256");

      let quote: ExternalQuote;
      if (source.chainId !== destination.chainId) {
        quote = await bridgeQuote(request, source, destination, amountIn, from.asset.symbol);
      } else if (from.asset.key === to.asset.key) {
        quote = {
          ...issue(request, amountIn, amountIn, 0n),
          kind: "transfer",
          executionClass: externalExecutionClasses.transfer,
          feeBps: 0,
        };
      } else {
        // A devnet solver-swap trades at parity, scaled by the two tokens' decimals, less the fee.
        const atRate = atParity(amountIn, from.asset.decimals, to.asset.decimals);
        const amountOut = bridgeOutputAmount(atRate, config.feeBps);
        if (amountOut <= 0n)
          throw new ExternalAggregatorError(400, "NO_ROUTE", "the amount does not cover the fee");
        quote = {
          ...issue(request, amountIn, amountOut, atRate - amountOut),
          kind: "solver-swap",
          executionClass: externalExecutionClasses["solver-swap"],
          feeBps: config.feeBps,
        };
      }
      quotes.set(quote.quoteId, quote);
      return quote;
    },
    getQuote: find,
    getStatus(quoteId) {
      const quote = find(quoteId);
      if (quote.kind !== "bridge") return { quoteId, state: "not-completable" };
      const deposit = relayer.findByRef(quote.depositRef);
      if (!deposit) return { quoteId, state: "awaiting-deposit" };
      return {
        quoteId,
        state: deposit.state === "pending" ? "deposited" : deposit.state,
        depositId: deposit.depositId,
        depositTxHash: deposit.depositTxHash,
        ...(deposit.releaseTxHash ? { releaseTxHash: deposit.releaseTxHash } : {}),
        ...(deposit.state === "released" ? { releasedAmount: deposit.releaseAmount } : {}),
      };
    },
  };
}
