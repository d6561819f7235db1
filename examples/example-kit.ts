// What every example shares: the running `npm start` stack's dev.json, an SDK client, a viem wallet for one
// funded devnet account, the quote of one lane, the printing of each step as it happens, and the token
// balances on both chain families.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Catalog,
  createHubClient,
  type HubClient,
  type PreparedQuote,
  type QuoteInput,
  type SubmitStep,
  type SubmittedOrder,
} from "@intent-hub/sdk";
import { viemWalletOverHttp } from "@intent-hub/sdk/viem";
import {
  type Address,
  address,
  createSolanaRpc,
  getAddressEncoder,
  getProgramDerivedAddress,
} from "@solana/kit";
import {
  type Account,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
  publicActions,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";

type Chain = Catalog["families"]["evm"][number];
type SolanaChain = Catalog["families"]["solana"][number];

/** dev.json as `npm start` writes it (HUB_DATA_DIR, default .data). */
interface DevFile {
  baseUrl: string;
  apiKey: string;
  chains: { chainDomain: string; chainId: number; rpcUrl: string; undeclaredToken: string }[];
  accounts: { address: string; privateKey: Hex }[];
  /** The Solana stand-in chain and its funded users (base58 address, 64-byte key pair in base58). */
  solanaChains: { chainDomain: string; rpcUrl: string }[];
  solanaAccounts: { address: string; secretKey: string }[];
}

export function print(label: string, text: string): void {
  console.log(`${label.padEnd(10)} ${text}`);
}

/** The stack, a client under a fresh subject, the catalog's two chains and a wallet for devnet account `accountIndex`. */
export async function exampleSetup(lane: string, accountIndex: number) {
  const dataDir = process.env.HUB_DATA_DIR ?? join(new URL("..", import.meta.url).pathname, ".data");
  const devFile = join(dataDir, "dev.json");
  if (!existsSync(devFile)) {
    console.error(`${devFile} not found: start the stack first (npm start) and wait for its ready line`);
    process.exit(1);
  }
  const dev = JSON.parse(readFileSync(devFile, "utf8")) as DevFile;
  const subject = `example-${lane}-${randomUUID().slice(0, 8)}`;
  const client = createHubClient({ baseUrl: dev.baseUrl, apiKey: dev.apiKey, subject });
  const account = privateKeyToAccount(dev.accounts[accountIndex]!.privateKey);
  const rpcUrls = Object.fromEntries(dev.chains.map((chain) => [chain.chainId, chain.rpcUrl]));
  const wallet = viemWalletOverHttp(account, rpcUrls);
  const catalog = await client.getCatalog();
  const [origin, destination] = catalog.families.evm as [Chain, Chain];
  print("stack", `${dev.baseUrl} as ${subject}, wallet ${account.address}`);
  return { dev, client, catalog, account, wallet, origin, destination, rpcUrls };
}

/** The catalog's Solana chain and its RPC URL from dev.json; exits when the stack runs without one. */
export function solanaChainOf(catalog: Catalog, dev: DevFile): { chain: SolanaChain; rpcUrl: string } {
  const chain = catalog.families.solana[0];
  const rpcUrl = dev.solanaChains.find((entry) => entry.chainDomain === chain?.chainDomain)?.rpcUrl;
  if (!chain || !rpcUrl) {
    console.error("the stack declares no Solana chain: start it with the devnet (npm start)");
    process.exit(1);
  }
  return { chain, rpcUrl };
}

/** The catalog key of a symbol on a chain. */
export function assetKey(chain: Chain | SolanaChain, symbol: string): string {
  const asset = chain.assets.find((entry) => entry.symbol === symbol);
  if (!asset) throw new Error(`${chain.chainDomain} declares no ${symbol}`);
  return asset.key;
}

/** Preview, choose the best offer on the lane, prepare it: the prepared terms are what gets signed or sent. */
export async function quoteOnLane(
  client: HubClient,
  request: QuoteInput,
  lane: string,
): Promise<PreparedQuote> {
  const preview = await client.previewQuote(request);
  const offer = preview.offers.find((entry) => entry.lane === lane);
  if (!offer)
    throw new Error(`no ${lane} offer among ${preview.offers.map((entry) => entry.lane).join(", ")}`);
  const quote = await client.prepareQuote({
    ...request,
    preparationId: randomUUID(),
    provider: offer.provider,
  });
  print(
    "quote",
    `${quote.lane} by ${quote.provider}: pay ${quote.input.amount} of ${quote.input.asset}, receive ${quote.output.amount} of ${quote.output.asset} (quoteId ${quote.quoteId}, expires ${quote.expiresAt})`,
  );
  return quote;
}

/** Prints each submission step as it happens. */
export function printStep(step: SubmitStep): void {
  print(...describeStep(step));
}

function describeStep(step: SubmitStep): [string, string] {
  switch (step.step) {
    case "signed": {
      // Hex on the EVM lanes; the Solana lane's envelope is standard base64.
      const bytes = step.signature.startsWith("0x")
        ? (step.signature.length - 2) / 2
        : Buffer.from(step.signature, "base64").length;
      return ["signature", `${step.signature.slice(0, 20)}… (${bytes} bytes)`];
    }
    case "sent": {
      const { kind, chainId, hash } = step.transaction;
      return ["tx sent", `${kind} on chain ${chainId}: ${hash} (${step.description})`];
    }
    case "mined":
      return ["tx mined", step.transaction.hash];
    case "lost-answer":
      return [
        "recover",
        `answer lost (${step.error.code}); order found: ${step.orderFound}; re-posting the same body`,
      ];
    case "acked":
      return [
        "ack",
        step.order.kind === "openfor"
          ? `hubOrderId ${step.order.hubOrderId}, onchainOrderId ${step.order.onchainOrderId}, state ${step.order.ack.state}`
          : `orderId ${step.order.orderId}, createdAt ${step.order.ack.createdAt}`,
      ];
  }
}

/**
 * Follows the order, printing each new state, then prints the money facts from the on-chain views (the
 * fill view, and the order each sent step opened) and one RESULT line the examples test reads; `after`
 * runs before that line and adds its fields to it.
 */
export async function followAndReport(
  client: HubClient,
  order: SubmittedOrder,
  after: () => Promise<Record<string, unknown>> = async () => ({}),
): Promise<void> {
  let fillKey = order.kind === "openfor" ? order.onchainOrderId : undefined;
  for await (const event of client.track(order, { intervalMs: 2_000 })) {
    if (event.view === "upstream") print("state", `upstream ${event.status.state} (advisory)`);
    else if (event.view === "hub") {
      print("state", `hub ${event.status.state}${event.status.final ? " (final)" : ""}`);
      fillKey = event.status.depositId ?? fillKey;
    } else if (event.view === "fill")
      print("state", `on chain ${event.fill.status ?? "nothing observed yet"}`);
    else print("handoff", event.reason);
  }
  if (!fillKey) throw new Error("no on-chain id to read the money facts by");
  const fill = await client.getOnchainFill(fillKey);
  for (const paid of fill.fills) {
    print("money", `filled ${paid.amount} to ${paid.recipient} on ${paid.chainDomain} in ${paid.txHash}`);
  }
  if (fill.openTx) print("money", `opened on ${fill.openTx.chainDomain} in ${fill.openTx.txHash}`);
  if (fill.settledTx) print("money", `settled on ${fill.settledTx.chainDomain} in ${fill.settledTx.txHash}`);
  const opened = [];
  for (const tx of order.sent.filter((entry) => entry.kind === "step")) {
    const found = await client.getOrderByTransaction(`eip155:${tx.chainId}`, tx.hash);
    print("money", `step ${tx.hash} → order ${found.orderId} (${found.event})`);
    opened.push(found.orderId);
  }
  const extra = await after();
  console.log(
    `RESULT ${JSON.stringify({ lane: order.lane, orderId: fillKey, status: fill.status, filled: fill.filled, settled: fill.settled, paid: fill.fills.map((entry) => entry.amount), opened, ...extra })}`,
  );
}

/** An ERC-20 balance, in base units. */
export async function evmTokenBalance(rpcUrl: string, chain: Chain, symbol: string, owner: string) {
  const token = chain.assets.find((asset) => asset.symbol === symbol)?.address as Hex;
  return createPublicClient({ transport: http(rpcUrl) }).readContract({
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [owner as Hex],
  });
}

const TOKEN_PROGRAM = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
const ASSOCIATED_TOKEN_PROGRAM = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");

/** The owner's associated token account of a mint: where SPL tokens sent to the owner land. */
export async function associatedTokenAccount(owner: string, mint: string): Promise<Address> {
  const encoder = getAddressEncoder();
  const [ata] = await getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM,
    seeds: [encoder.encode(address(owner)), encoder.encode(TOKEN_PROGRAM), encoder.encode(address(mint))],
  });
  return ata;
}

/** An SPL token balance of an owner (its associated token account), in base units; 0 when it has none yet. */
export async function solanaTokenBalance(
  rpcUrl: string,
  chain: SolanaChain,
  symbol: string,
  owner: string,
): Promise<bigint> {
  const mint = chain.assets.find((asset) => asset.symbol === symbol)?.mint;
  if (!mint) throw new Error(`${chain.chainDomain} declares no ${symbol}`);
  const rpc = createSolanaRpc(rpcUrl);
  const ata = await associatedTokenAccount(owner, mint);
  const { value: account } = await rpc.getAccountInfo(ata, { encoding: "base64" }).send();
  if (!account) return 0n;
  const { value } = await rpc.getTokenAccountBalance(ata).send();
  return BigInt(value.amount);
}

/** Lets Permit2 move a token for the account: the Permit2 lane's one approval, sent before quoting. */
export async function approvePermit2(
  account: Account,
  rpcUrl: string,
  chain: Chain,
  symbol: string,
): Promise<void> {
  const client = createWalletClient({ account, transport: http(rpcUrl) }).extend(publicActions);
  const token = chain.assets.find((asset) => asset.symbol === symbol)?.address as Hex;
  const allowance = await client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: "allowance",
    args: [account.address, chain.permit2 as Hex],
  });
  if (allowance > 0n) return;
  const hash = await client.writeContract({
    chain: null,
    address: token,
    abi: erc20Abi,
    functionName: "approve",
    args: [chain.permit2 as Hex, maxUint256],
  });
  await client.waitForTransactionReceipt({ hash });
  print("approve", `${symbol} to Permit2 ${chain.permit2}: ${hash}`);
}
