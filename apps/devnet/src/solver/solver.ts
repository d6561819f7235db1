import { randomBytes, randomUUID } from "node:crypto";
import {
  addressToBytes32,
  committeeOracleAbi,
  type DevnetAccount,
  type DevnetChain,
  type DevnetManifest,
  type DevnetSolanaAccount,
  devnetErc20Abi,
  devnetUsdcAbi,
  encodeSolanaInteropAddress,
  fillDescriptionHash,
  inputSettlerEscrowAbi,
  type MandateOutput,
  orderIdentifier,
  outputSettlerAbi,
  solanaOifChainId,
  type StandardOrder,
  standardOrderToJson,
} from "@hub/chain";
import { type Clock, systemClock } from "@hub/clock";
import { type Address, getAbiItem, type Hex, maxUint256 } from "viem";
import { decodeInteropAddress, encodeInteropAddress } from "../aggregator/interop-address.js";
import type { OrderStatus, SolverOrderResponse, SolverPostOrderResponse } from "../aggregator/oif-order.js";
import type { OifOrder, SolverQuote } from "../aggregator/oif-quote.js";
import { getQuoteRequestSchema, validateQuoteRequest } from "../aggregator/oif-quote-request.js";
import { createLogCursor, type LogCursor } from "../create-log-cursor.js";
import type { FaultKnobs } from "../faults/fault-knobs.js";
import { escrowOpenForSignature } from "./escrow-open-for-signature.js";
import { errorText } from "./error-text.js";
import { evmFillOutcome } from "./evm-fill-outcome.js";
import { orderMoves, terminal } from "./order-moves.js";
import { permit2OrderPayload, receiveWithAuthorizationPayload, type TokenDomain } from "./order-payloads.js";
import { quoteAmounts } from "./quote-amounts.js";
import { reportedStatus } from "./reported-status.js";
import {
  createSolanaFiller,
  rescaleAmount,
  type SolanaOutputTarget,
  solanaMandateOutput,
  solanaMetadataOutput,
  solanaOutputTarget,
} from "./solana-output-fill.js";
import { createSolanaSourceOrders, type SolanaSourceOrders } from "./solana-source-order.js";
import { isSolanaSourceRequest, type SolanaSourceDeps } from "./solana-source-quote.js";
import {
  createSolverChainClients,
  type SolverChainClient,
  transactionReceipt,
} from "./solver-chain-clients.js";
import { SolverError } from "./solver-error.js";

/** The assets a devnet solver bridges: each one to the same asset on another devnet chain. */
export const bridgedAssetKinds = ["usdc", "token", "wrappedNative"] as const;
export type BridgedAssetKind = (typeof bridgedAssetKinds)[number];

export interface SolverConfig {
  id: string;
  name?: string;
  /** The solver's own funded key (one of manifest.solvers). */
  account: DevnetAccount;
  /** The solver's Solana key (one of manifest.solana.solvers): it pays and sends fills of Solana outputs. */
  solanaAccount?: DevnetSolanaAccount;
  manifest: DevnetManifest;
  /** Price: the output is the input less this many basis points. */
  spreadBps: number;
  /** Added before every quote answer: how slow this solver is to quote. */
  quoteLatencyMs?: number;
  /** The eta the solver announces, in seconds. */
  etaSeconds?: number;
  /** How long a quote stays valid (its validUntil); 30 by default, the spec's quote lifetime. */
  quoteValiditySeconds?: number;
  fillDeadlineSeconds?: number;
  expiresSeconds?: number;
  /** Period of the background work loop. */
  pollIntervalMs?: number;
  clock?: Clock;
  faults?: FaultKnobs;
  logger?: { warn(fields: object, message: string): void };
  /** The Solana chain, its escrow and the solver's Solana key (manifest.solana.solvers[i]): Solana → EVM orders. */
  solana?: SolanaSourceDeps;
}

export interface SolverAssets {
  networks: Record<
    string,
    {
      /** A Solana chain's OIF chain id is 256 bits: a decimal string, as in solana-lane.md's witness. */
      chain_id: number | string;
      assets: { address: string; symbol: string; decimals: number }[];
    }
  >;
}

export interface Solver {
  readonly id: string;
  readonly address: Address;
  readonly quoteLatencyMs: number;
  quote(body: unknown): Promise<{ quotes: SolverQuote[] }>;
  submitOrder(body: unknown): Promise<SolverPostOrderResponse>;
  getOrder(orderId: string): SolverOrderResponse;
  assets(): Promise<SolverAssets>;
  /** Approves the output settlers and starts the background work loop. */
  start(): Promise<void>;
  /** Stops the work loop after the step in progress. */
  stop(): Promise<void>;
}

interface StoredQuote {
  quoteId: string;
  orderType: OifOrder["type"];
  order: StandardOrder;
  orderId: Hex;
  validUntil: number;
  origin: DevnetChain;
  /** The EVM destination; absent when the output is paid on Solana (`solana`). */
  destination?: DevnetChain;
  solana?: SolanaOutputTarget;
  preview: SolverQuote["preview"];
}

interface OrderRecord {
  orderId: Hex;
  quote: StoredQuote;
  signature?: Hex;
  status: OrderStatus;
  createdAt: number;
  updatedAt: number;
  openTx?: Hex;
  /** A transaction hash, or a Solana signature for a Solana output. */
  fillTx?: string;
  fillTimestamp?: number;
  claimTx?: Hex;
}

const openEvent = getAbiItem({ abi: inputSettlerEscrowAbi, name: "Open" });

/** The escrow's orderStatus enum. */
const escrowOrderStatus = { None: 0, Deposited: 1, Claimed: 2, Refunded: 3 } as const;

/** A devnet OIF solver: quotes same-asset bridges between devnet chains, then opens, fills and claims on chain. */
export function createSolver(config: SolverConfig): Solver {
  const clock = config.clock ?? systemClock;
  const quoteValiditySeconds = config.quoteValiditySeconds ?? 30;
  const fillDeadlineSeconds = config.fillDeadlineSeconds ?? 300;
  const expiresSeconds = config.expiresSeconds ?? 600;
  const pollIntervalMs = config.pollIntervalMs ?? 1000;
  const etaSeconds = config.etaSeconds ?? 60;
  const clients = createSolverChainClients(config.manifest, config.account);
  const solverAddress = config.account.address;
  const solverBytes32 = addressToBytes32(solverAddress);
  const quotes = new Map<string, StoredQuote>();
  const orders = new Map<string, OrderRecord>();
  // Every order this solver quoted, by on-chain order id, until its fill deadline: an Open of one of them
  // is filled even when no registration arrives (spec: a refused registration is still filled).
  const quotedOrders = new Map<Hex, StoredQuote>();
  const openCursors = new Map<number, LogCursor<typeof openEvent>>();
  const tokenDomains = new Map<string, TokenDomain>();
  const tokenMeta = new Map<string, { symbol: string; decimals: number }>();
  const decimalsByToken = new Map<string, number>();
  const nowSeconds = () => Math.floor(clock.now() / 1000);
  const { move, fail } = orderMoves(nowSeconds);
  const solanaFiller =
    config.manifest.solana && config.solanaAccount
      ? createSolanaFiller({ rpcUrl: config.manifest.solana.rpcUrl, account: config.solanaAccount })
      : undefined;
  const solanaSource: SolanaSourceOrders | undefined = config.solana
    ? createSolanaSourceOrders({
        id: config.id,
        ...(config.name !== undefined ? { name: config.name } : {}),
        manifest: config.manifest,
        solana: config.solana,
        spreadBps: config.spreadBps,
        etaSeconds,
        quoteValiditySeconds,
        fillDeadlineSeconds,
        expiresSeconds,
        clock,
        ...(config.faults ? { faults: config.faults } : {}),
        client,
      })
    : undefined;

  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;

  function client(chainId: number | bigint): SolverChainClient {
    const found = clients.get(Number(chainId));
    if (!found) throw new Error(`no client for chain ${chainId}`);
    return found;
  }

  async function chainSeconds(...chains: DevnetChain[]): Promise<number> {
    const blocks = await Promise.all(chains.map((c) => client(c.chainId).publicClient.getBlock()));
    return Math.max(nowSeconds(), ...blocks.map((b) => Number(b.timestamp)));
  }

  function kindOf(chain: DevnetChain, address: string): BridgedAssetKind | undefined {
    return bridgedAssetKinds.find((k) => chain.contracts[k].toLowerCase() === address.toLowerCase());
  }

  async function tokenDecimals(chain: DevnetChain, token: Address): Promise<number> {
    const key = `${chain.chainId}:${token}`;
    const cached = tokenMeta.get(key)?.decimals ?? decimalsByToken.get(key);
    if (cached !== undefined) return cached;
    const decimals = await client(chain.chainId).publicClient.readContract({
      address: token,
      abi: devnetErc20Abi,
      functionName: "decimals",
    });
    decimalsByToken.set(key, decimals);
    return decimals;
  }

  async function tokenDomain(chain: DevnetChain, token: Address): Promise<TokenDomain> {
    const key = `${chain.chainId}:${token}`;
    const cached = tokenDomains.get(key);
    if (cached) return cached;
    const { publicClient } = client(chain.chainId);
    const [name, version] = await Promise.all([
      publicClient.readContract({ address: token, abi: devnetErc20Abi, functionName: "name" }),
      publicClient.readContract({ address: token, abi: devnetUsdcAbi, functionName: "version" }),
    ]);
    const domain = { name, version };
    tokenDomains.set(key, domain);
    return domain;
  }

  async function quote(body: unknown): Promise<{ quotes: SolverQuote[] }> {
    const parsed = getQuoteRequestSchema.safeParse(body);
    if (!parsed.success) throw new SolverError(400, "INVALID_REQUEST", parsed.error.message);
    const request = parsed.data;
    const problem = validateQuoteRequest(request);
    if (problem) throw new SolverError(400, "VALIDATION_ERROR", problem);
    if (isSolanaSourceRequest(request)) {
      if (!solanaSource) throw new SolverError(422, "UNSUPPORTED_ASSET", "this solver has no Solana key");
      return { quotes: [await solanaSource.quote(request)] };
    }
    const { intent } = request;
    if (intent.inputs.length !== 1)
      throw new SolverError(400, "INVALID_REQUEST", "multi-input quote requests are not supported yet");
    if (intent.outputs.length !== 1)
      throw new SolverError(400, "INVALID_REQUEST", "exactly one output is supported");
    const input = intent.inputs[0]!;
    const output = intent.outputs[0]!;
    const user = decodeInteropAddress(request.user);
    const inputAsset = decodeInteropAddress(input.asset);
    const inputOrigin = inputAsset && config.manifest.chains.find((c) => c.chainId === inputAsset.chainId);
    const solana =
      inputOrigin && solanaFiller
        ? solanaOutputTarget(config.manifest.solana, output, {
            chainId: inputOrigin.chainId,
            token: inputAsset.address,
          })
        : undefined;
    const outputAsset = solana ? undefined : decodeInteropAddress(output.asset);
    const receiver = solana ? undefined : decodeInteropAddress(output.receiver);
    if (!user || !inputAsset || (!solana && (!outputAsset || !receiver)))
      throw new SolverError(400, "INVALID_REQUEST", "addresses must be ERC-7930 eip155 interop addresses");
    const origin = inputOrigin;
    const destination = outputAsset && config.manifest.chains.find((c) => c.chainId === outputAsset.chainId);
    if (!origin || (!solana && !destination))
      throw new SolverError(422, "UNSUPPORTED_ASSET", "chain not served by this solver");
    if (origin.chainId === destination?.chainId)
      throw new SolverError(422, "UNSUPPORTED_ASSET", "this solver only bridges between chains");
    const kind = kindOf(origin, inputAsset.address);
    if (!kind || (destination && kindOf(destination, outputAsset!.address) !== kind))
      throw new SolverError(422, "UNSUPPORTED_ASSET", "input and output must be the same declared asset");

    // Prices are in the input's units; a Solana mint may count in other decimals than the EVM token.
    const inputDecimals = solana ? await tokenDecimals(origin, origin.contracts[kind]) : 0;
    const outputDecimals = solana ? solana.token.decimals : 0;
    const priced = quoteAmounts(
      config.spreadBps,
      intent.swapType === "exact-output"
        ? {
            swapType: "exact-output",
            amountOut: rescaleAmount(BigInt(output.amount!), outputDecimals, inputDecimals, "up"),
          }
        : { swapType: "exact-input", amountIn: BigInt(input.amount!) },
    );
    const amountIn = priced.amountIn;
    const amountOut =
      intent.swapType === "exact-output"
        ? BigInt(output.amount!)
        : rescaleAmount(priced.amountOut, inputDecimals, outputDecimals, "down");
    if (amountOut === 0n) throw new SolverError(422, "INSUFFICIENT_LIQUIDITY", "amount too small");

    const schemes = intent.originSubmission?.schemes ?? [];
    const wants3009 = schemes.includes("eip3009") || schemes.includes("eip-3009");
    const orderType: OifOrder["type"] = wants3009 && kind === "usdc" ? "oif-3009-v0" : "oif-escrow-v0";
    if (!request.supportedTypes.includes(orderType))
      throw new SolverError(
        422,
        "UNSUPPORTED_SETTLEMENT",
        `this request needs ${orderType}, not in supportedTypes`,
      );

    const outputToken = destination?.contracts[kind];
    const balance = solana
      ? await solanaFiller!.balance(solana.token.mint)
      : await client(destination!.chainId).publicClient.readContract({
          address: outputToken!,
          abi: devnetErc20Abi,
          functionName: "balanceOf",
          args: [solverAddress],
        });
    if (balance < amountOut)
      throw new SolverError(422, "INSUFFICIENT_LIQUIDITY", "not enough output liquidity");

    const now = nowSeconds();
    for (const [id, stale] of quotes) if (stale.validUntil < now) quotes.delete(id);
    // Deadlines are judged by block time, which runs ahead of the wall clock after a time travel.
    const chainNow = await chainSeconds(origin, ...(destination ? [destination] : []));
    const mandateOutput: MandateOutput = solana
      ? solanaMandateOutput(solana, amountOut)
      : {
          oracle: addressToBytes32(destination!.contracts.committeeOracle),
          settler: addressToBytes32(destination!.contracts.outputSettler),
          chainId: BigInt(destination!.chainId),
          token: addressToBytes32(outputToken!),
          amount: amountOut,
          recipient: addressToBytes32(receiver!.address),
          callbackData: "0x",
          context: "0x",
        };
    const order: StandardOrder = {
      user: user.address,
      nonce: BigInt(`0x${randomBytes(12).toString("hex")}`),
      originChainId: BigInt(origin.chainId),
      expires: chainNow + expiresSeconds,
      fillDeadline: chainNow + fillDeadlineSeconds,
      inputOracle: origin.contracts.committeeOracle,
      inputs: [[BigInt(origin.contracts[kind]), amountIn]],
      outputs: [mandateOutput],
    };
    const orderId = orderIdentifier(order, origin.chainId, origin.contracts.inputSettlerEscrow);
    const quoteId = randomUUID();
    const preview = {
      inputs: [
        { user: input.user.toLowerCase(), asset: input.asset.toLowerCase(), amount: amountIn.toString() },
      ],
      outputs: [
        {
          receiver: output.receiver.toLowerCase(),
          asset: output.asset.toLowerCase(),
          amount: amountOut.toString(),
        },
      ],
    };
    let oifOrder: OifOrder;
    if (orderType === "oif-3009-v0") {
      const token = origin.contracts.usdc;
      oifOrder = {
        type: "oif-3009-v0",
        payload: receiveWithAuthorizationPayload(
          order,
          orderId,
          token,
          await tokenDomain(origin, token),
          origin.contracts.inputSettlerEscrow,
        ),
        metadata: {
          user: encodeInteropAddress(origin.chainId, order.user),
          nonce: order.nonce.toString(),
          originChainId: origin.chainId,
          expires: order.expires,
          fillDeadline: order.fillDeadline,
          inputOracle: order.inputOracle.toLowerCase(),
          inputs: [
            {
              chainId: origin.chainId,
              asset: token.toLowerCase(),
              amount: amountIn.toString(),
              user: order.user,
            },
          ],
          outputs: [
            solana
              ? solanaMetadataOutput(mandateOutput)
              : {
                  chainId: destination!.chainId,
                  asset: outputToken!.toLowerCase(),
                  amount: amountOut.toString(),
                  receiver: receiver!.address,
                  oracle: destination!.contracts.committeeOracle.toLowerCase(),
                  settler: destination!.contracts.outputSettler.toLowerCase(),
                },
          ],
          orderId,
          standardOrder: standardOrderToJson(order, { keepCase: true }),
        },
      };
    } else {
      oifOrder = {
        type: "oif-escrow-v0",
        payload: permit2OrderPayload(order, origin.contracts.permit2, origin.contracts.inputSettlerEscrow),
      };
    }
    const stored: StoredQuote = {
      quoteId,
      orderType,
      order,
      orderId,
      validUntil: now + quoteValiditySeconds,
      origin,
      ...(destination ? { destination } : {}),
      ...(solana ? { solana } : {}),
      preview,
    };
    quotes.set(quoteId, stored);
    quotedOrders.set(orderId, stored);
    return {
      quotes: [
        {
          order: oifOrder,
          validUntil: now + quoteValiditySeconds,
          eta: etaSeconds,
          quoteId,
          provider: config.name ?? config.id,
          failureHandling: intent.failureHandling?.[0] ?? "refund-automatic",
          partialFill: false,
          preview,
        },
      ],
    };
  }

  async function submitOrder(body: unknown): Promise<SolverPostOrderResponse> {
    if (config.faults?.get(config.id).refuseOrders)
      throw new SolverError(422, "SOLVER_REJECTED", `solver ${config.id} refuses new orders`);
    const request = (body ?? {}) as { quoteId?: unknown; signature?: unknown };
    if (typeof request.quoteId !== "string")
      throw new SolverError(
        400,
        "INVALID_REQUEST",
        "this solver only takes orders against its own quotes (quoteId)",
      );
    if (solanaSource?.owns(request.quoteId))
      return solanaSource.submit({ quoteId: request.quoteId, signature: request.signature });
    const stored = quotes.get(request.quoteId);
    if (!stored || nowSeconds() > stored.validUntil)
      throw new SolverError(400, "QUOTE_NOT_FOUND", `quote ${request.quoteId} not found or expired`);
    const key = stored.orderId.slice(2);
    const existing = orders.get(key);
    const accepted = (record: OrderRecord): SolverPostOrderResponse => ({
      orderId: record.orderId.slice(2),
      status: "received",
      message: record.signature
        ? "Signed order accepted; the solver opens it on the origin chain"
        : "Registration accepted; the solver fills the order once its Open is seen on the origin chain",
      order: standardOrderToJson(record.quote.order, { keepCase: true }),
    });
    if (existing) return accepted(existing);

    const rawSignature = typeof request.signature === "string" ? request.signature : "";
    let signature: Hex | undefined;
    if (rawSignature !== "" && rawSignature !== "0x") {
      signature = escrowOpenForSignature(rawSignature, stored.orderType);
      if (!signature)
        throw new SolverError(
          422,
          "SOLVER_REJECTED",
          "signature must be 65 bytes, or 66 bytes starting with the order type's scheme byte",
        );
      const origin = client(stored.origin.chainId);
      try {
        await origin.publicClient.simulateContract({
          account: origin.walletClient.account,
          address: stored.origin.contracts.inputSettlerEscrow,
          abi: inputSettlerEscrowAbi,
          functionName: "openFor",
          args: [stored.order, stored.order.user, signature],
        });
      } catch (error) {
        throw new SolverError(422, "SOLVER_REJECTED", `openFor would revert: ${errorText(error)}`);
      }
    }
    const now = nowSeconds();
    const record: OrderRecord = {
      orderId: stored.orderId,
      quote: stored,
      ...(signature ? { signature } : {}),
      status: "created",
      createdAt: now,
      updatedAt: now,
    };
    orders.set(key, record);
    return accepted(record);
  }

  function getOrder(orderId: string): SolverOrderResponse {
    const record = orders.get(orderId.toLowerCase().replace(/^0x/, ""));
    if (!record) {
      const solanaOrder = solanaSource?.get(orderId);
      if (solanaOrder) return solanaOrder;
      throw new SolverError(400, "ORDER_NOT_FOUND", `order ${orderId} not found`);
    }
    const reported = reportedStatus(record.status, config.faults?.get(config.id) ?? {});
    if (reported.tookReportOnce) config.faults?.takeReportOnce(config.id);
    const { status, hideFill } = reported;
    const { quote: stored } = record;
    const fillStatus =
      typeof record.status === "object" && record.status.failed[0] === "Fill" ? "failed" : undefined;
    return {
      id: record.orderId,
      status,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      quoteId: stored.quoteId,
      inputAmounts: stored.preview.inputs.map((i) => ({ asset: i.asset, amount: i.amount! })),
      outputAmounts: stored.preview.outputs.map((o) => ({ asset: o.asset, amount: o.amount! })),
      settlement: {
        type: "escrow",
        data: {
          raw_order_data: standardOrderToJson(stored.order, { keepCase: true }),
          signature: record.signature ?? null,
          nonce: stored.order.nonce.toString(),
          expires: stored.order.expires,
          open_transaction: record.openTx ?? null,
        },
      },
      fillTransaction:
        record.fillTx && !hideFill
          ? {
              hash: record.fillTx,
              status: fillStatus ?? (record.fillTimestamp !== undefined ? "executed" : "pending"),
              timestamp: record.fillTimestamp ?? record.updatedAt,
            }
          : null,
    };
  }

  async function assets(): Promise<SolverAssets> {
    const networks: SolverAssets["networks"] = {};
    for (const chain of config.manifest.chains) {
      const list = [];
      for (const kind of bridgedAssetKinds) {
        const address = chain.contracts[kind];
        const key = `${chain.chainId}:${address}`;
        let meta = tokenMeta.get(key);
        if (!meta) {
          const { publicClient } = client(chain.chainId);
          const [symbol, decimals] = await Promise.all([
            publicClient.readContract({ address, abi: devnetErc20Abi, functionName: "symbol" }),
            publicClient.readContract({ address, abi: devnetErc20Abi, functionName: "decimals" }),
          ]);
          meta = { symbol, decimals };
          tokenMeta.set(key, meta);
        }
        list.push({ address: encodeInteropAddress(chain.chainId, address), ...meta });
      }
      networks[String(chain.chainId)] = { chain_id: chain.chainId, assets: list };
    }
    const solana = config.manifest.solana;
    if (solana && (solanaFiller || solanaSource)) {
      const chainId = solanaOifChainId(solana.genesisHash).toString();
      networks[chainId] = {
        chain_id: chainId,
        assets: solana.tokens.map((token) => ({
          address: encodeSolanaInteropAddress(solana.genesisHash, token.mint),
          symbol: token.symbol,
          decimals: token.decimals,
        })),
      };
    }
    return { networks };
  }

  async function escrowStatus(record: OrderRecord): Promise<number> {
    return client(record.quote.origin.chainId).publicClient.readContract({
      address: record.quote.origin.contracts.inputSettlerEscrow,
      abi: inputSettlerEscrowAbi,
      functionName: "orderStatus",
      args: [record.orderId],
    });
  }

  // One move of the order's state machine; true when it moved and the next move may follow at once.
  async function advance(record: OrderRecord): Promise<boolean> {
    const { quote: stored } = record;
    const origin = client(stored.origin.chainId);
    const destination = stored.destination && client(stored.destination.chainId);
    const escrow = stored.origin.contracts.inputSettlerEscrow;
    const output = stored.order.outputs[0]!;
    const failAt = config.faults?.get(config.id).failAt;
    switch (record.status) {
      case "created": {
        if (failAt === "Prepare") return fail(record, "Prepare", "solver failed before opening the order");
        if (record.signature) {
          try {
            record.openTx = await origin.walletClient.writeContract({
              address: escrow,
              abi: inputSettlerEscrowAbi,
              functionName: "openFor",
              args: [stored.order, stored.order.user, record.signature],
            });
          } catch (error) {
            return fail(record, "Prepare", `openFor failed: ${errorText(error)}`);
          }
          return move(record, "pending");
        }
        const opened = await origin.publicClient.getContractEvents({
          address: escrow,
          abi: inputSettlerEscrowAbi,
          eventName: "Open",
          args: { orderId: record.orderId },
          fromBlock: BigInt(stored.origin.deployBlock),
        });
        if (opened[0]) {
          record.openTx = opened[0].transactionHash;
          return move(record, "executing");
        }
        if ((await chainSeconds(stored.origin)) > stored.order.fillDeadline)
          return fail(record, "Prepare", "the order was not opened before its fill deadline");
        return false;
      }
      case "pending": {
        const mined = await transactionReceipt(origin, record.openTx!);
        if (!mined) return false;
        if (mined.status !== "success")
          return fail(record, "Prepare", `openFor reverted in ${record.openTx}`);
        return move(record, "executing");
      }
      case "executing": {
        if (!record.fillTx) {
          if (failAt === "Fill") return fail(record, "Fill", "solver failed before filling the output");
          const onChain = await escrowStatus(record);
          if (onChain === escrowOrderStatus.Refunded) return move(record, "refunded");
          if (onChain !== escrowOrderStatus.Deposited)
            return fail(record, "Fill", `escrow holds no deposit for the order (status ${onChain})`);
          try {
            record.fillTx = stored.solana
              ? await solanaFiller!.fill({
                  orderId: record.orderId,
                  output,
                  decimals: stored.solana.token.decimals,
                  solver: solverAddress,
                })
              : await destination!.walletClient.writeContract({
                  address: stored.destination!.contracts.outputSettler,
                  abi: outputSettlerAbi,
                  functionName: "fill",
                  args: [record.orderId, output, stored.order.fillDeadline, solverBytes32],
                });
          } catch (error) {
            return fail(record, "Fill", `fill failed: ${errorText(error)}`);
          }
          record.updatedAt = nowSeconds();
          return true;
        }
        if (stored.solana) {
          const outcome = await solanaFiller!.outcome(record.fillTx);
          if (outcome.state === "pending") return false;
          if (outcome.state === "failed") return fail(record, "Fill", outcome.reason);
          // The escrow refuses a fill stamped after the deadline, as an EVM output settler refuses the fill.
          if (outcome.blockTime > stored.order.fillDeadline)
            return fail(record, "Fill", `fill ${record.fillTx} landed after the fill deadline`);
          record.fillTimestamp = outcome.blockTime;
          return move(record, "executed");
        }
        const outcome = await evmFillOutcome(destination!, record.fillTx as Hex, record.orderId);
        if (outcome.state === "pending") return false;
        if (outcome.state === "failed") return fail(record, "Fill", outcome.reason);
        record.fillTimestamp = outcome.fillTimestamp;
        return move(record, "executed");
      }
      case "executed":
        if (failAt === "PostFill") return fail(record, "PostFill", "solver failed after the fill");
        return move(record, "settling");
      case "settling": {
        const proven = await origin.publicClient.readContract({
          address: stored.order.inputOracle,
          abi: committeeOracleAbi,
          functionName: "isProven",
          args: [
            output.chainId,
            output.oracle,
            output.settler,
            fillDescriptionHash({
              solver: solverBytes32,
              orderId: record.orderId,
              timestamp: record.fillTimestamp!,
              output,
            }),
          ],
        });
        if (proven) return move(record, "settled");
        if ((await escrowStatus(record)) === escrowOrderStatus.Refunded) return move(record, "refunded");
        return false;
      }
      case "settled": {
        if (!record.claimTx) {
          if (failAt === "PreClaim") return fail(record, "PreClaim", "solver failed before claiming");
          if (failAt === "Claim") return fail(record, "Claim", "solver failed to claim");
          try {
            record.claimTx = await origin.walletClient.writeContract({
              address: escrow,
              abi: inputSettlerEscrowAbi,
              functionName: "finalise",
              args: [
                stored.order,
                [{ timestamp: record.fillTimestamp!, solver: solverBytes32 }],
                solverBytes32,
                "0x",
              ],
            });
          } catch (error) {
            return fail(record, "Claim", `finalise failed: ${errorText(error)}`);
          }
          record.updatedAt = nowSeconds();
          return true;
        }
        const mined = await transactionReceipt(origin, record.claimTx);
        if (!mined) return false;
        if (mined.status !== "success")
          return fail(record, "Claim", `finalise reverted in ${record.claimTx}`);
        return move(record, "finalized");
      }
      default:
        return false;
    }
  }

  // Opens of quoted orders that no registration announced become orders the work loop fills.
  async function adoptUnregisteredOpens(): Promise<void> {
    for (const chain of config.manifest.chains) {
      let cursor = openCursors.get(chain.chainId);
      if (!cursor) {
        cursor = createLogCursor({
          client: client(chain.chainId).publicClient,
          address: chain.contracts.inputSettlerEscrow,
          event: openEvent,
          fromBlock: BigInt(chain.deployBlock),
        });
        openCursors.set(chain.chainId, cursor);
      }
      const opens = await cursor.next();
      for (const open of opens) {
        const stored = quotedOrders.get(open.args.orderId);
        if (!stored || stored.origin.chainId !== chain.chainId) continue;
        quotedOrders.delete(stored.orderId);
        const key = stored.orderId.slice(2);
        if (orders.has(key)) continue;
        const now = nowSeconds();
        orders.set(key, {
          orderId: stored.orderId,
          quote: stored,
          status: "executing",
          openTx: open.transactionHash,
          createdAt: now,
          updatedAt: now,
        });
      }
      if (quotedOrders.size === 0) continue;
      const chainNow = await chainSeconds(chain);
      for (const [orderId, stored] of quotedOrders)
        if (stored.origin.chainId === chain.chainId && stored.order.fillDeadline < chainNow)
          quotedOrders.delete(orderId);
    }
  }

  async function tick(): Promise<void> {
    try {
      await adoptUnregisteredOpens();
    } catch (error) {
      config.logger?.warn({ solverId: config.id, err: errorText(error) }, "reading Open events failed");
    }
    for (const record of orders.values()) {
      if (!running) return;
      try {
        for (let moves = 0; moves < 8 && !terminal(record.status) && (await advance(record)); moves++);
      } catch (error) {
        config.logger?.warn(
          { solverId: config.id, orderId: record.orderId, err: errorText(error) },
          "solver step failed",
        );
      }
    }
    await solanaSource?.tick(
      () => running,
      (orderId, error) =>
        config.logger?.warn({ solverId: config.id, orderId, err: errorText(error) }, "solver step failed"),
    );
  }

  function schedule(): void {
    timer = setTimeout(() => {
      inFlight = tick().finally(() => {
        inFlight = undefined;
        if (running) schedule();
      });
    }, pollIntervalMs);
  }

  async function approveOutputSettlers(): Promise<void> {
    for (const chain of config.manifest.chains) {
      const { publicClient, walletClient } = client(chain.chainId);
      for (const kind of bridgedAssetKinds) {
        const token = chain.contracts[kind];
        const allowance = await publicClient.readContract({
          address: token,
          abi: devnetErc20Abi,
          functionName: "allowance",
          args: [solverAddress, chain.contracts.outputSettler],
        });
        if (allowance > maxUint256 / 2n) continue;
        const hash = await walletClient.writeContract({
          address: token,
          abi: devnetErc20Abi,
          functionName: "approve",
          args: [chain.contracts.outputSettler, maxUint256],
        });
        const mined = await publicClient.waitForTransactionReceipt({ hash });
        if (mined.status !== "success")
          throw new Error(`approve of ${token} on ${chain.chainDomain} reverted`);
      }
    }
  }

  return {
    id: config.id,
    address: solverAddress,
    quoteLatencyMs: config.quoteLatencyMs ?? 0,
    quote,
    submitOrder,
    getOrder,
    assets,
    async start() {
      if (running) return;
      await approveOutputSettlers();
      running = true;
      schedule();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
