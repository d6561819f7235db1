import {
  addressToBytes32,
  attestationForOutputFilled,
  type DevnetAccount,
  type DevnetChain,
  type DevnetManifest,
  decodeOutputFilledLogs,
  devnetErc20Abi,
  inputSettlerEscrowAbi,
  orderIdentifier,
  outputSettlerAbi,
  type StandardOrder,
  signAttestation,
  submitAttestation,
} from "@hub/chain";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  parseUnits,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startDevnetChains } from "../../devnet/src/chains/index.js";
import { type ReconcilerChainConfig, reconcilerChainsFromManifest } from "../src/reconciler/index.js";

function viemChain(chain: DevnetChain) {
  return defineChain({
    id: chain.chainId,
    name: chain.chainDomain,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
}

function wallet(chain: DevnetChain, account: DevnetAccount) {
  return createWalletClient({
    chain: viemChain(chain),
    account: privateKeyToAccount(account.privateKey),
    transport: http(chain.rpcUrl),
    pollingInterval: 20,
  });
}

export async function rpc(rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

export interface OpenedOrder {
  order: StandardOrder;
  orderId: Hex;
}

/** The devnet's two chains with the moves of an order's life, each one real transaction. */
export interface OrderDevnet {
  manifest: DevnetManifest;
  origin: DevnetChain;
  destination: DevnetChain;
  originClient: PublicClient;
  destinationClient: PublicClient;
  stop(): Promise<void>;
  reconcilerChains(): ReconcilerChainConfig[];
  /** A USDC order from origin to destination with deadlines counted from the origin's clock. */
  newOrder(options?: { fillDeadlineSeconds?: number; expiresSeconds?: number }): Promise<OpenedOrder>;
  /** The user approves the escrow and calls open; resolves to the transaction hash. */
  open(opened: OpenedOrder): Promise<Hex>;
  /** A solver fills the order's one output on the destination chain. */
  fill(opened: OpenedOrder): Promise<{ txHash: Hex; timestamp: number; solver: Hex }>;
  /** The committee proves the fill on origin and the solver finalises. */
  proveAndFinalise(opened: OpenedOrder, fillTxHash: Hex): Promise<Hex>;
  /** The user's refund after expiry. */
  refund(opened: OpenedOrder): Promise<Hex>;
  /** Moves a chain's clock forward and mines one block at the new time. */
  increaseTime(chain: DevnetChain, seconds: number): Promise<void>;
  latestTimestamp(chain: DevnetChain): Promise<number>;
}

export async function startOrderDevnet(): Promise<OrderDevnet> {
  const devnet = await startDevnetChains();
  const { manifest } = devnet;
  const [origin, destination] = manifest.chains as [DevnetChain, DevnetChain];
  const user = manifest.users[0]!;
  const solver = manifest.solvers[0]!;
  const clientFor = (chain: DevnetChain) =>
    createPublicClient({ chain: viemChain(chain), transport: http(chain.rpcUrl), pollingInterval: 20 });
  const originClient = clientFor(origin);
  const destinationClient = clientFor(destination);
  const amount = parseUnits("10", 6);
  let nonce = 1n;

  const latestTimestamp = async (chain: DevnetChain) => {
    const block = (await rpc(chain.rpcUrl, "eth_getBlockByNumber", ["latest", false])) as { timestamp: Hex };
    return Number(block.timestamp);
  };

  return {
    manifest,
    origin,
    destination,
    originClient,
    destinationClient,
    stop: () => devnet.stop(),
    latestTimestamp,
    reconcilerChains: () => reconcilerChainsFromManifest(manifest),
    async newOrder(options = {}) {
      // Deadlines from the later of the two chains' clocks: an earlier test may have moved either forward.
      const now = Math.max(await latestTimestamp(origin), await latestTimestamp(destination));
      const order: StandardOrder = {
        user: user.address,
        nonce: nonce++,
        originChainId: BigInt(origin.chainId),
        expires: now + (options.expiresSeconds ?? 600),
        fillDeadline: now + (options.fillDeadlineSeconds ?? 300),
        inputOracle: origin.contracts.committeeOracle,
        inputs: [[BigInt(origin.contracts.usdc), amount]],
        outputs: [
          {
            oracle: addressToBytes32(destination.contracts.committeeOracle),
            settler: addressToBytes32(destination.contracts.outputSettler),
            chainId: BigInt(destination.chainId),
            token: addressToBytes32(destination.contracts.usdc),
            amount: amount - 1000n,
            recipient: addressToBytes32(user.address),
            callbackData: "0x",
            context: "0x",
          },
        ],
      };
      return { order, orderId: orderIdentifier(order, origin.chainId, origin.contracts.inputSettlerEscrow) };
    },
    async open({ order }) {
      const userWallet = wallet(origin, user);
      await originClient.waitForTransactionReceipt({
        hash: await userWallet.writeContract({
          address: origin.contracts.usdc,
          abi: devnetErc20Abi,
          functionName: "approve",
          args: [origin.contracts.inputSettlerEscrow, amount],
        }),
      });
      const hash = await userWallet.writeContract({
        address: origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "open",
        args: [order],
      });
      await originClient.waitForTransactionReceipt({ hash });
      return hash;
    },
    async fill({ order, orderId }) {
      const hash = await wallet(destination, solver).writeContract({
        address: destination.contracts.outputSettler,
        abi: outputSettlerAbi,
        functionName: "fill",
        args: [orderId, order.outputs[0]!, order.fillDeadline, addressToBytes32(solver.address)],
      });
      const receipt = await destinationClient.waitForTransactionReceipt({ hash });
      const filled = decodeOutputFilledLogs(receipt.logs)[0];
      if (!filled) throw new Error("fill emitted no OutputFilled");
      return { txHash: hash, timestamp: filled.args.timestamp, solver: filled.args.solver };
    },
    async proveAndFinalise({ order }, fillTxHash) {
      const receipt = await destinationClient.getTransactionReceipt({ hash: fillTxHash });
      const filled = decodeOutputFilledLogs(receipt.logs)[0];
      if (!filled) throw new Error("no OutputFilled in the fill transaction");
      const attestation = attestationForOutputFilled(filled);
      const signatures = await Promise.all(
        manifest.committee.members.slice(0, manifest.committee.threshold).map((member) =>
          signAttestation({
            privateKey: member.privateKey,
            oracle: origin.contracts.committeeOracle,
            chainId: origin.chainId,
            attestation,
          }),
        ),
      );
      await originClient.waitForTransactionReceipt({
        hash: await submitAttestation(wallet(origin, manifest.relayer), {
          oracle: origin.contracts.committeeOracle,
          attestation,
          signatures,
        }),
      });
      const hash = await wallet(origin, solver).writeContract({
        address: origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "finalise",
        args: [
          order,
          [{ timestamp: filled.args.timestamp, solver: filled.args.solver }],
          addressToBytes32(solver.address),
          "0x",
        ],
      });
      await originClient.waitForTransactionReceipt({ hash });
      return hash;
    },
    async refund({ order }) {
      const hash = await wallet(origin, user).writeContract({
        address: origin.contracts.inputSettlerEscrow,
        abi: inputSettlerEscrowAbi,
        functionName: "refund",
        args: [order],
      });
      await originClient.waitForTransactionReceipt({ hash });
      return hash;
    },
    async increaseTime(chain, seconds) {
      await rpc(chain.rpcUrl, "evm_increaseTime", [seconds]);
      await rpc(chain.rpcUrl, "evm_mine");
    },
  };
}
