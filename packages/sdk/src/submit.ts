import { HubError, isUserRejection, type SentTransaction, WalletRejectedError } from "./errors.js";
import { hubOrderIdOf } from "./hub-order-id.js";
import { type SolanaSignPayload, signSolanaPayload } from "./solana-envelope.js";
import { isSolanaWallet, type Wallet } from "./solana-wallet.js";
import { sleep, type Transport } from "./transport.js";
import type { ExecutionTx, OpenForAck, OrderCreateAck, Winner } from "./types.js";
import { approveCalldata, type EvmWallet, evmChainIdOf, type TypedData } from "./wallet.js";

/** An order `submit` registered: what `track` follows. */
export type SubmittedOrder =
  | {
      kind: "openfor";
      lane: Winner["lane"];
      quoteId: string;
      /** The {orderId} of GET /order/{orderId}/status. */
      hubOrderId: string;
      /** The on-chain id: the fill view's key. */
      onchainOrderId: string;
      ack: OpenForAck;
      sent: SentTransaction[];
    }
  | {
      kind: "open-flow";
      lane: Winner["lane"];
      quoteId: string;
      /** The {orderId} of GET /status/{orderId}. */
      orderId: string;
      ack: OrderCreateAck;
      sent: SentTransaction[];
    };

/** What `submit` reports as it happens, in order. */
export type SubmitStep =
  | { step: "signed"; lane: Winner["lane"]; signature: string }
  | { step: "sent"; transaction: SentTransaction; description: string }
  | { step: "mined"; transaction: SentTransaction }
  | { step: "lost-answer"; error: HubError; orderFound: boolean }
  | { step: "acked"; order: SubmittedOrder };

export interface SubmitOptions {
  signal?: AbortSignal;
  onStep?: (step: SubmitStep) => void;
}

/** One submission: what each of its steps reads, and the transactions sent so far. */
interface Submission {
  readonly call: Transport;
  readonly winner: Winner;
  readonly wallet: Wallet;
  readonly signal: AbortSignal | undefined;
  readonly onStep: (step: SubmitStep) => void;
  readonly hubOrderId: string;
  readonly sent: SentTransaction[];
}

/**
 * Does what the winner's lane asks, once: sign (Permit2, EIP-3009, Solana), or send executionTx (proxy
 * lanes, open flow) and sign signIntent (open flow); then registers. A lost answer is recovered by reading the
 * order by its hubOrderId and re-posting the identical body: never a second signature, never a re-quote.
 * EIN0052 stops at once. Every error after a transaction was sent carries it in `sent`.
 */
export async function submitWinner(
  call: Transport,
  winner: Winner,
  wallet: Wallet,
  options: SubmitOptions = {},
): Promise<SubmittedOrder> {
  const { signal, onStep = () => {} } = options;
  const hubOrderId = await hubOrderIdOf(winner.quoteId);
  const submission: Submission = { call, winner, wallet, signal, onStep, hubOrderId, sent: [] };
  const { sent } = submission;
  try {
    return await submitLane(submission);
  } catch (error) {
    if (error instanceof HubError) throw error.withSent(sent);
    // The user's refusal in the wallet: its own kind, so a page can say so and offer to try again.
    if (isUserRejection(error)) {
      throw new WalletRejectedError({ message: `wallet: the user rejected the request`, cause: error, sent });
    }
    // The wallet's own failure (RPC error, a wallet bug): the one error class, with what was sent.
    throw new HubError({
      code: "ESDK_WALLET",
      status: 0,
      message: `wallet: ${String(error)}`,
      cause: error,
      sent,
    });
  }
}

/** Signs or sends what the winner's lane asks, then registers the order. */
async function submitLane(submission: Submission): Promise<SubmittedOrder> {
  const { winner, wallet, sent, onStep } = submission;
  switch (winner.lane) {
    case "oif-escrow-gasless":
      // Permit2: the scheme byte 0x00, then the 65-byte ECDSA signature.
      return await registerOpenFor(
        submission,
        await signTyped(submission, winner.signPayload as TypedData, "0x00"),
      );
    case "aggregator-gasless":
      // EIP-3009: the raw signature of the inner payload of {chainId, payload}.
      return await registerOpenFor(
        submission,
        await signTyped(submission, (winner.signPayload as { payload: TypedData }).payload, "0x"),
      );
    case "oif-wrap-native":
    case "oif-swap-token":
      await sendAll(requireExecutionTx(winner), evmWallet(submission), sent, onStep);
      return await registerOpenFor(submission);
    case "oif-escrow-nonevm": {
      // Solana: the 97-byte envelope, after the sender and digest checks; never signed twice.
      if (!isSolanaWallet(wallet)) refuseFamily("a Solana winner needs a Solana wallet");
      const signature = await signSolanaPayload(
        winner.signPayload as SolanaSignPayload,
        wallet,
        winner.sourceAccount,
      );
      onStep({ step: "signed", lane: winner.lane, signature });
      return await registerOpenFor(submission, signature);
    }
    case "open-flow":
      return await submitOpenFlow(submission);
    default:
      throw new HubError({
        code: "ESDK_NOT_COMPLETABLE",
        status: 0,
        message: `a ${winner.lane} winner is not completable by submit`,
      });
  }
}

/** Sends executionTx, signs signIntent, and registers the signed order. */
async function submitOpenFlow(submission: Submission): Promise<SubmittedOrder> {
  const { winner, sent, onStep, hubOrderId } = submission;
  // Without signIntent a signed registration is impossible: refuse before anything is sent.
  const signIntent = winner.signIntent;
  if (!signIntent) {
    throw new HubError({
      code: "ESDK_NO_SIGN_INTENT",
      status: 0,
      message: "the winner carries no signIntent: re-quote with sourceAccount before sending anything",
    });
  }
  const payer = evmWallet(submission);
  await sendAll(requireExecutionTx(winner), payer, sent, onStep);
  const signature = await payer.signMessage(signIntent);
  onStep({ step: "signed", lane: winner.lane, signature });
  const body = {
    quoteId: winner.quoteId,
    artifactHash: winner.disclosure.signableHash,
    signature,
    signer: payer.address,
    scheme: "eip191",
  };
  const ack = await register<OrderCreateAck>(submission, "/order", body, `/status/${hubOrderId}`);
  return acked(submission, {
    kind: "open-flow",
    lane: winner.lane,
    quoteId: winner.quoteId,
    orderId: ack.orderId,
    ack,
    sent,
  });
}

async function registerOpenFor(submission: Submission, signature?: string): Promise<SubmittedOrder> {
  const { winner, hubOrderId, sent } = submission;
  const body = {
    quoteRequestId: winner.quoteRequestId,
    quoteId: winner.quoteId,
    ...(signature ? { signature } : {}),
  };
  const ack = await register<OpenForAck>(submission, "/order/openfor", body, `/order/${hubOrderId}/status`);
  return acked(submission, {
    kind: "openfor",
    lane: winner.lane,
    quoteId: winner.quoteId,
    hubOrderId: ack.hubOrderId,
    onchainOrderId: ack.orderId,
    ack,
    sent,
  });
}

/** POST a registration; a lost answer is read back by hubOrderId and re-posted; EIN0052 stops at once. */
function register<T>(submission: Submission, path: string, body: object, readPath: string): Promise<T> {
  const { call, signal } = submission;
  return call<T>({
    method: "POST",
    path,
    body,
    signal,
    stopOn: ["EIN0052"],
    onLostAnswer: readBack(submission, readPath),
  });
}

/** After a lost answer: read the order by its id, once more after a pause if not found, then the caller re-posts. */
function readBack(submission: Submission, path: string): (error: HubError) => Promise<void> {
  const { call, signal, onStep } = submission;
  return async (error: HubError) => {
    const found = () =>
      call({ method: "GET", path, signal }).then(
        () => true,
        () => false,
      );
    let orderFound = await found();
    if (!orderFound) {
      await sleep(1_000, signal);
      orderFound = await found();
    }
    onStep({ step: "lost-answer", error, orderFound });
  };
}

function acked(submission: Submission, order: SubmittedOrder): SubmittedOrder {
  submission.onStep({ step: "acked", order });
  return order;
}

/** The wallet the lane needs, or a refusal before anything is signed or sent. */
function evmWallet(submission: Submission): EvmWallet {
  const { wallet, winner } = submission;
  if (isSolanaWallet(wallet)) refuseFamily(`a ${winner.lane} winner needs an EVM wallet`);
  return wallet;
}

async function signTyped(submission: Submission, typed: TypedData, prefix: string): Promise<string> {
  const signature = `${prefix}${(await evmWallet(submission).signTypedData(typed)).replace(/^0x/, "")}`;
  submission.onStep({ step: "signed", lane: submission.winner.lane, signature });
  return signature;
}

function refuseFamily(message: string): never {
  throw new HubError({ code: "ESDK_WALLET_FAMILY", status: 0, message });
}

function requireExecutionTx(winner: Winner): ExecutionTx {
  if (!winner.executionTx) {
    throw new HubError({
      code: "ESDK_NOT_COMPLETABLE",
      status: 0,
      message: "the winner carries no executionTx",
    });
  }
  return winner.executionTx;
}

/** Approvals first, then steps, in order; each mined and succeeded before the next. */
async function sendAll(
  executionTx: ExecutionTx,
  wallet: EvmWallet,
  sent: SentTransaction[],
  onStep: (step: SubmitStep) => void,
): Promise<void> {
  const transactions = [
    ...executionTx.approvals.map((approval) => ({
      kind: "approval" as const,
      chainId: evmChainIdOf(approval.chainId),
      to: approval.token,
      data: approveCalldata(approval.spender, BigInt(approval.amount)),
      value: 0n,
      description: `approve ${approval.amount} to ${approval.spender}`,
    })),
    ...executionTx.steps.map((step) => ({
      kind: "step" as const,
      chainId: evmChainIdOf(step.chainId),
      to: step.to,
      data: step.data,
      value: BigInt(step.value),
      description: step.description,
    })),
  ];
  for (const { kind, description, ...tx } of transactions) {
    const hash = await wallet.sendTransaction(tx);
    const transaction: SentTransaction = { kind, chainId: tx.chainId, hash };
    sent.push(transaction);
    onStep({ step: "sent", transaction, description });
    if (!(await wallet.waitForTransaction(tx.chainId, hash))) {
      throw new HubError({ code: "ESDK_TX_REVERTED", status: 0, message: `transaction ${hash} reverted` });
    }
    onStep({ step: "mined", transaction });
  }
}
