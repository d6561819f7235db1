import {
  addressToBytes32,
  type DevnetAccount,
  type DevnetChain,
  devnetErc20Abi,
  type MandateOutput,
  type StandardOrder,
} from "@hub/chain";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type DevnetChains, startDevnetChains } from "../src/chains/index.js";

export function viemChain(chain: DevnetChain) {
  return defineChain({
    id: chain.chainId,
    name: chain.chainDomain,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
}

export function publicClientFor(chain: DevnetChain): PublicClient {
  return createPublicClient({ chain: viemChain(chain), transport: http(chain.rpcUrl), pollingInterval: 20 });
}

export function walletClientFor(chain: DevnetChain, account: DevnetAccount) {
  return createWalletClient({
    chain: viemChain(chain),
    account: privateKeyToAccount(account.privateKey),
    transport: http(chain.rpcUrl),
    pollingInterval: 20,
  });
}

async function rpc(chain: DevnetChain, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(chain.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** One devnet per test file; each test runs between a snapshot and a revert of both chains. */
export interface ChainsFixture {
  devnet: DevnetChains;
  origin: DevnetChain;
  destination: DevnetChain;
  originClient: PublicClient;
  destinationClient: PublicClient;
  snapshot(): Promise<void>;
  revert(): Promise<void>;
  /** Moves a chain's clock forward and mines a block at the new time. */
  increaseTime(chain: DevnetChain, seconds: number): Promise<void>;
  latestTimestamp(chain: DevnetChain): Promise<number>;
  balanceOf(chain: DevnetChain, token: Address, owner: Address): Promise<bigint>;
}

export async function startChainsFixture(): Promise<ChainsFixture> {
  const devnet = await startDevnetChains();
  const [origin, destination] = devnet.manifest.chains as [DevnetChain, DevnetChain];
  let snapshots: string[] = [];
  const chains = [origin, destination];
  return {
    devnet,
    origin,
    destination,
    originClient: publicClientFor(origin),
    destinationClient: publicClientFor(destination),
    async snapshot() {
      snapshots = (await Promise.all(chains.map((chain) => rpc(chain, "evm_snapshot")))) as string[];
    },
    async revert() {
      await Promise.all(chains.map((chain, i) => rpc(chain, "evm_revert", [snapshots[i]])));
    },
    async increaseTime(chain, seconds) {
      await rpc(chain, "evm_increaseTime", [seconds]);
      await rpc(chain, "evm_mine");
    },
    async latestTimestamp(chain) {
      const block = (await rpc(chain, "eth_getBlockByNumber", ["latest", false])) as { timestamp: Hex };
      return Number(block.timestamp);
    },
    balanceOf(chain, token, owner) {
      return publicClientFor(chain).readContract({
        address: token,
        abi: devnetErc20Abi,
        functionName: "balanceOf",
        args: [owner],
      });
    },
  };
}

/**
 * A one-input, one-output cross-chain order from `origin` to `destination`, as a solver would quote it:
 * outputs settle through the destination's output settler and are proven by the committee oracle.
 */
export function crossChainOrder(params: {
  origin: DevnetChain;
  destination: DevnetChain;
  user: Address;
  inputToken: Address;
  inputAmount: bigint;
  outputToken: Address | null;
  outputAmount: bigint;
  recipient: Address;
  now: number;
  nonce?: bigint;
  fillDeadlineSeconds?: number;
  expiresSeconds?: number;
}): StandardOrder {
  const output: MandateOutput = {
    oracle: addressToBytes32(params.destination.contracts.committeeOracle),
    settler: addressToBytes32(params.destination.contracts.outputSettler),
    chainId: BigInt(params.destination.chainId),
    token: params.outputToken === null ? `0x${"0".repeat(64)}` : addressToBytes32(params.outputToken),
    amount: params.outputAmount,
    recipient: addressToBytes32(params.recipient),
    callbackData: "0x",
    context: "0x",
  };
  return {
    user: params.user,
    nonce: params.nonce ?? BigInt(params.now) * 1000n,
    originChainId: BigInt(params.origin.chainId),
    expires: params.now + (params.expiresSeconds ?? 600),
    fillDeadline: params.now + (params.fillDeadlineSeconds ?? 300),
    inputOracle: params.origin.contracts.committeeOracle,
    inputs: [[BigInt(params.inputToken), params.inputAmount]],
    outputs: [output],
  };
}
