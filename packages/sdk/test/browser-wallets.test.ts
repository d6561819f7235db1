import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type RunningAnvil, startAnvil } from "@hub/chain";
import {
  type Chain,
  createPublicClient,
  createWalletClient,
  custom,
  type Hex,
  http,
  verifyTypedData,
} from "viem";
import {
  createHubClient,
  HubError,
  type SubmitStep,
  WalletRejectedError,
  type Winner,
} from "../src/index.js";
import { walletClientWallet } from "../src/viem.js";
import { DEV_ADDRESS, devnetEip1193Provider } from "./eip1193-wallet.js";
import { ok, rejection, scriptedServer } from "./scripted-server.js";

// A real viem WalletClient over an EIP-1193 provider object backed by two anvil chains (the devnet's
// two EVM chain ids): what a page gets from `custom(window.ethereum)` or wagmi's useWalletClient.

const A = 31337;
const B = 31338;
let chains: RunningAnvil[] = [];
const rpcUrls: Record<number, string> = {};

before(async () => {
  chains = await Promise.all([startAnvil({ chainId: A }), startAnvil({ chainId: B })]);
  rpcUrls[A] = chains[0]!.rpcUrl;
  rpcUrls[B] = chains[1]!.rpcUrl;
});
after(async () => {
  await Promise.all(chains.map((chain) => chain.stop()));
});

const chainB = (): Chain =>
  ({
    id: B,
    name: "devnet B",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrls[B]!] } },
  }) as Chain;

/** A page's wallet: on chain A, knowing only A (chain B is added on demand, as a fresh MetaMask). */
function pageWallet() {
  const provider = devnetEip1193Provider({ rpcUrls, known: [A], chainId: A });
  const walletClient = createWalletClient({ account: DEV_ADDRESS, transport: custom(provider) });
  return { provider, walletClient };
}

const permit2Typed = (chainId: number) => ({
  domain: { name: "Permit2", chainId, verifyingContract: `0x${"22".repeat(20)}` },
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
    Note: [{ name: "amount", type: "uint256" }],
  },
  primaryType: "Note",
  message: { amount: "5" },
});

function winner(lane: string, extra: Record<string, unknown> = {}): Winner {
  return {
    quoteRequestId: "qr_r1_x",
    quoteId: `q_r1_${lane}`,
    lane,
    disclosure: { signablePayload: { kind: lane }, signableHash: `0x${"ab".repeat(32)}` },
    ...extra,
  } as unknown as Winner;
}

const ack = (w: Winner) =>
  ok({
    orderId: `0x${"99".repeat(32)}`,
    hubOrderId: "h",
    quoteId: w.quoteId,
    state: "created",
    submittedAt: "t",
  });

test("a WalletClient signs a Permit2 order on the other chain: the wallet answers 4902, the chain is added, switched to, and the signature recovers to the account", async () => {
  const { provider, walletClient } = pageWallet();
  const typed = permit2Typed(B);
  const w = winner("oif-escrow-gasless", { signPayload: typed });
  const server = await scriptedServer([() => ack(w)]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, projectId: "proj_x", subject: "s" });
    const wallet = walletClientWallet(walletClient, { chains: [chainB()] });
    assert.equal(wallet.address, DEV_ADDRESS);
    await client.submit(w, wallet);
    assert.equal(provider.state.chainId, B, "the wallet is on the order's chain");
    assert.deepEqual(
      provider.state.requests.filter((m) => m.startsWith("wallet_") || m === "eth_signTypedData_v4"),
      ["wallet_switchEthereumChain", "wallet_addEthereumChain", "eth_signTypedData_v4"],
    );
    const signature = JSON.parse(server.received[0]!.body).signature as string;
    assert.match(signature, /^0x00[0-9a-f]{130}$/);
    const { EIP712Domain: _domain, ...types } = typed.types;
    assert.ok(
      await verifyTypedData({
        address: DEV_ADDRESS,
        domain: typed.domain as never,
        types,
        primaryType: "Note",
        message: { amount: 5n },
        signature: `0x${signature.slice(4)}` as Hex,
      }),
    );
  } finally {
    await server.close();
  }
});

test("transactions on two chains: the approval on A, the step on B; the wallet switches between them and each is mined on its own chain", async () => {
  const { provider, walletClient } = pageWallet();
  const token = `0x${"ef".repeat(20)}`;
  const receiver = `0x${"77".repeat(20)}`;
  const executionTx = {
    approvals: [{ chainId: A, token, spender: receiver, amount: "1000" }],
    steps: [{ chainId: B, to: receiver, data: "0x", value: "12345", description: "deposit" }],
  };
  const w = winner("oif-swap-token", { executionTx });
  const server = await scriptedServer([() => ack(w)]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, projectId: "proj_x", subject: "s" });
    // Receipts read from the chains' own RPC, as a page with its own RPC URLs would.
    const wallet = walletClientWallet(walletClient, {
      chains: [chainB()],
      readTransport: (id) => http(rpcUrls[id]),
    });
    const steps: SubmitStep[] = [];
    const order = await client.submit(w, wallet, { onStep: (s) => steps.push(s) });
    assert.deepEqual(
      steps.map((s) => s.step),
      ["sent", "mined", "sent", "mined", "acked"],
    );
    assert.deepEqual(
      order.sent.map((t) => [t.kind, t.chainId]),
      [
        ["approval", A],
        ["step", B],
      ],
    );
    const onA = createPublicClient({ transport: http(rpcUrls[A]) });
    const onB = createPublicClient({ transport: http(rpcUrls[B]) });
    const approval = await onA.getTransaction({ hash: order.sent[0]!.hash as Hex });
    assert.equal(approval.to, token);
    assert.equal(approval.input.slice(0, 10), "0x095ea7b3");
    const deposit = await onB.getTransaction({ hash: order.sent[1]!.hash as Hex });
    assert.equal(deposit.value, 12345n);
    assert.equal(await onB.getBalance({ address: receiver as Hex }), 12345n);
    assert.equal(provider.state.chainId, B);
  } finally {
    await server.close();
  }
});

test("a rejected signature is a WalletRejectedError (kind user-rejected, code ESDK_WALLET_REJECTED): nothing posted", async () => {
  const { provider, walletClient } = pageWallet();
  const w = winner("oif-escrow-gasless", { signPayload: permit2Typed(A) });
  const server = await scriptedServer([]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, projectId: "proj_x", subject: "s" });
    provider.state.reject.add("eth_signTypedData_v4");
    const error = await rejection(client.submit(w, walletClientWallet(walletClient)));
    assert.ok(error instanceof WalletRejectedError);
    assert.deepEqual(
      [error.kind, error.code, error.block, error.sent.length],
      ["user-rejected", "ESDK_WALLET_REJECTED", "terminal", 0],
    );
    assert.deepEqual(server.calls(), []);
  } finally {
    await server.close();
  }
});

test("a refused chain switch is a rejection too, before anything is sent; onChainMismatch 'refuse' names the chains instead of asking", async () => {
  const { provider, walletClient } = pageWallet();
  const executionTx = {
    approvals: [],
    steps: [{ chainId: B, to: `0x${"77".repeat(20)}`, data: "0x", value: "1", description: "deposit" }],
  };
  const w = winner("oif-wrap-native", { executionTx });
  const server = await scriptedServer([]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, projectId: "proj_x", subject: "s" });
    provider.state.reject.add("wallet_switchEthereumChain");
    const refused = await rejection(
      client.submit(w, walletClientWallet(walletClient, { chains: [chainB()] })),
    );
    assert.ok(refused instanceof WalletRejectedError);
    assert.equal(provider.state.chainId, A);
    assert.ok(!provider.state.requests.includes("eth_sendTransaction"));

    const wrong = await rejection(
      client.submit(w, walletClientWallet(walletClient, { onChainMismatch: "refuse" })),
    );
    assert.ok(!(wrong instanceof WalletRejectedError));
    assert.deepEqual([wrong.code, wrong.params], ["ESDK_WRONG_CHAIN", [String(B), String(A)]]);

    // A chain the wallet does not know and no definition to add it: asked of the page, not guessed.
    const unknown = await rejection(client.submit(w, walletClientWallet(walletClient)));
    assert.equal(unknown.code, "ESDK_WRONG_CHAIN");
    assert.ok(!provider.state.requests.includes("eth_sendTransaction"));
    assert.deepEqual(server.calls(), []);

    // The page switches itself (wagmi's switchChainAsync): called with the step's chain, then the send.
    const asked: number[] = [];
    const switching = walletClientWallet(walletClient, {
      onChainMismatch: async (id) => {
        asked.push(id);
        await walletClient.addChain({ chain: chainB() });
      },
      readTransport: (id) => http(rpcUrls[id]),
    });
    const answered = await scriptedServer([() => ack(w)]);
    try {
      const other = createHubClient({ baseUrl: answered.baseUrl, projectId: "proj_x", subject: "s" });
      const order = await other.submit(w, switching);
      assert.deepEqual(asked, [B]);
      assert.deepEqual(
        order.sent.map((t) => t.chainId),
        [B],
      );
    } finally {
      await answered.close();
    }
  } finally {
    await server.close();
  }
});

test("the WalletClient without an account is refused at once; a HubError stays the one class", () => {
  const walletClient = createWalletClient({ transport: custom(pageWallet().provider) });
  assert.throws(() => walletClientWallet(walletClient), /no account/);
  assert.ok(new WalletRejectedError({ message: "x" }) instanceof HubError);
});
