import type { DevnetChain, DevnetSolanaAccount, DevnetSolanaChain } from "@hub/chain";
import type { Clock } from "@hub/clock";
import { type Address, createNoopSigner } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import type { Logger } from "pino";
import { createPollLoop } from "../create-poll-loop.js";
import { sendDevnetTransaction } from "./send-devnet-transaction.js";
import { createSolanaChain, type SolanaChain } from "./solana-chain.js";
import {
  type SolanaDevnetKeys,
  solanaDevnetKeys,
  usdcDecimals,
  writeSolanaDevnetGenesis,
} from "./solana-devnet-genesis.js";
import { createSolanaEscrow, type SolanaEscrow } from "./solana-escrow.js";
import type { SolanaKeypair } from "./solana-keypair.js";
import { startSolanaRpcServer } from "./start-solana-rpc-server.js";

export { solanaDevnetFunding, solanaDevnetLayout } from "./solana-devnet-genesis.js";

export interface SolanaDevnet {
  manifest: DevnetSolanaChain;
  chain: SolanaChain;
  escrow: SolanaEscrow;
  stop(): Promise<void>;
}

/** Bump when the genesis state changes incompatibly: it names the genesis hash, hence the chain domain. */
const genesisLabel = "devnet genesis 1";

function exported(keypair: SolanaKeypair): DevnetSolanaAccount {
  return { address: keypair.address, secretKey: keypair.secretKey };
}

/**
 * Starts the Solana stand-in: the chain with its genesis (faucet, settler, users and solvers funded
 * with SOL and USDC, the USDC mint, the escrow's vault), its JSON-RPC server, and the escrow.
 */
export async function startSolanaDevnet(config: {
  /** 0 picks a free port. */
  rpcPort: number;
  clock: Clock;
  /** How often the settler looks for expired deposits to refund; 100 ms by default. */
  pollIntervalMs?: number;
  /** The EVM devnet chains whose USDC the Solana USDC stands for. */
  evmChains: DevnetChain[];
  logger: Logger;
}): Promise<SolanaDevnet> {
  const chain = createSolanaChain({ clock: config.clock, genesisLabel });
  const keys = solanaDevnetKeys();
  const { faucet, settler } = keys;
  const vault = await writeSolanaDevnetGenesis(chain, keys);
  const escrow = createSolanaEscrow({ chain, settler });
  // No program lets the user withdraw, so the settler refunds each expired deposit itself.
  const refunds = createPollLoop(
    { name: "solana-escrow-refunds", intervalMs: config.pollIntervalMs ?? 100, logger: config.logger },
    async () => {
      const refunded = await escrow.refundExpired();
      if (refunded.length > 0)
        config.logger.info({ orderIds: refunded }, "solana escrow refunded expired deposits");
    },
  );
  const server = await startSolanaRpcServer(
    { port: config.rpcPort },
    {
      chain,
      logger: config.logger,
      airdrop: (recipient, lamports) =>
        sendDevnetTransaction(chain, faucet, [
          getTransferSolInstruction({
            source: createNoopSigner(faucet.address),
            destination: recipient,
            amount: lamports,
          }),
        ]).signature,
    },
  );
  const manifest = solanaDevnetManifest(chain, keys, {
    rpcUrl: server.url,
    vault,
    evmChains: config.evmChains,
  });
  refunds.start();
  return {
    manifest,
    chain,
    escrow,
    async stop() {
      await refunds.stop();
      await server.stop();
    },
  };
}

function solanaDevnetManifest(
  chain: SolanaChain,
  { settler, usdcMint, users, solvers }: SolanaDevnetKeys,
  context: { rpcUrl: string; vault: Address; evmChains: DevnetChain[] },
): DevnetSolanaChain {
  return {
    chainDomain: chain.chainDomain,
    genesisHash: chain.genesisHash,
    rpcUrl: context.rpcUrl,
    tokens: [
      {
        symbol: "USDC",
        assetKey: `${chain.chainDomain}/token:${usdcMint}`,
        mint: usdcMint,
        decimals: usdcDecimals,
        counterparts: context.evmChains.map(
          (evm) => `eip155:${evm.chainId}/erc20:${evm.contracts.usdc.toLowerCase()}`,
        ),
      },
    ],
    escrow: { settler: exported(settler), vaults: [{ mint: usdcMint, vault: context.vault }] },
    users: users.map(exported),
    solvers: solvers.map(exported),
  };
}
