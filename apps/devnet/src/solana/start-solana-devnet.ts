import type { DevnetChain, DevnetSolanaAccount, DevnetSolanaChain } from "@hub/chain";
import type { Clock } from "@hub/clock";
import { type Address, createNoopSigner, none, some } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import {
  AccountState,
  findAssociatedTokenPda,
  getMintEncoder,
  getTokenEncoder,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import type { Logger } from "pino";
import { createPollLoop } from "../create-poll-loop.js";
import { createSolanaChain, type SolanaChain } from "./solana-chain.js";
import { createSolanaEscrow, type SolanaEscrow } from "./solana-escrow.js";
import { devnetSolanaKeypair, type SolanaKeypair } from "./solana-keypair.js";
import { sendDevnetTransaction } from "./send-devnet-transaction.js";
import { startSolanaRpcServer } from "./start-solana-rpc-server.js";

export interface SolanaDevnet {
  manifest: DevnetSolanaChain;
  chain: SolanaChain;
  escrow: SolanaEscrow;
  stop(): Promise<void>;
}

const lamportsPerSol = 1_000_000_000n;
const systemProgramAddress = "11111111111111111111111111111111" as Address;
/** Bump when the genesis state changes incompatibly: it names the genesis hash, hence the chain domain. */
const genesisLabel = "devnet genesis 1";

export const solanaDevnetLayout = { users: 8, solvers: 2 } as const;
export const solanaDevnetFunding = {
  user: { sol: 100n * lamportsPerSol, usdc: 1_000_000n * 10n ** 6n },
  solver: { sol: 1000n * lamportsPerSol, usdc: 10_000_000n * 10n ** 6n },
  settler: { sol: 100n * lamportsPerSol },
  faucet: { sol: 500_000_000n * lamportsPerSol },
} as const;
const usdcDecimals = 6;

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
  const faucet = devnetSolanaKeypair("faucet");
  const settler = devnetSolanaKeypair("escrow settler");
  const mintAuthority = devnetSolanaKeypair("usdc mint authority");
  const usdcMint = devnetSolanaKeypair("usdc mint").address;
  const users = Array.from({ length: solanaDevnetLayout.users }, (_, i) => devnetSolanaKeypair(`user ${i}`));
  const solvers = Array.from({ length: solanaDevnetLayout.solvers }, (_, i) =>
    devnetSolanaKeypair(`solver ${i}`),
  );

  const fundSol = (owner: Address, lamports: bigint) =>
    chain.setGenesisAccount({
      address: owner,
      lamports,
      owner: systemProgramAddress,
      data: new Uint8Array(),
    });
  const tokenAccountRent = chain.minimumBalanceForRentExemption(165);
  async function fundUsdc(owner: Address, amount: bigint): Promise<Address> {
    const [ata] = await findAssociatedTokenPda({
      owner,
      mint: usdcMint,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    });
    chain.setGenesisAccount({
      address: ata,
      lamports: tokenAccountRent,
      owner: TOKEN_PROGRAM_ADDRESS,
      data: Uint8Array.from(
        getTokenEncoder().encode({
          mint: usdcMint,
          owner,
          amount,
          delegate: none(),
          state: AccountState.Initialized,
          isNative: none(),
          delegatedAmount: 0n,
          closeAuthority: none(),
        }),
      ),
    });
    return ata;
  }

  fundSol(faucet.address, solanaDevnetFunding.faucet.sol);
  fundSol(settler.address, solanaDevnetFunding.settler.sol);
  for (const user of users) fundSol(user.address, solanaDevnetFunding.user.sol);
  for (const solver of solvers) fundSol(solver.address, solanaDevnetFunding.solver.sol);
  const balances: [Address, bigint][] = [
    ...users.map((user): [Address, bigint] => [user.address, solanaDevnetFunding.user.usdc]),
    ...solvers.map((solver): [Address, bigint] => [solver.address, solanaDevnetFunding.solver.usdc]),
    // The settler's own USDC account is the escrow's vault; it starts empty.
    [settler.address, 0n],
  ];
  const tokenAccounts = await Promise.all(balances.map(([owner, amount]) => fundUsdc(owner, amount)));
  const vault = tokenAccounts.at(-1)!;
  chain.setGenesisAccount({
    address: usdcMint,
    lamports: chain.minimumBalanceForRentExemption(82),
    owner: TOKEN_PROGRAM_ADDRESS,
    data: Uint8Array.from(
      getMintEncoder().encode({
        mintAuthority: some(mintAuthority.address),
        supply: balances.reduce((sum, [, amount]) => sum + amount, 0n),
        decimals: usdcDecimals,
        isInitialized: true,
        freezeAuthority: none(),
      }),
    ),
  });

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
  const manifest: DevnetSolanaChain = {
    chainDomain: chain.chainDomain,
    genesisHash: chain.genesisHash,
    rpcUrl: server.url,
    tokens: [
      {
        symbol: "USDC",
        assetKey: `${chain.chainDomain}/token:${usdcMint}`,
        mint: usdcMint,
        decimals: usdcDecimals,
        counterparts: config.evmChains.map(
          (evm) => `eip155:${evm.chainId}/erc20:${evm.contracts.usdc.toLowerCase()}`,
        ),
      },
    ],
    escrow: { settler: exported(settler), vaults: [{ mint: usdcMint, vault }] },
    users: users.map(exported),
    solvers: solvers.map(exported),
  };
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
