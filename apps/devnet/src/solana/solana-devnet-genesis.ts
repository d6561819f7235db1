import { type Address, none, some } from "@solana/kit";
import {
  AccountState,
  findAssociatedTokenPda,
  getMintEncoder,
  getTokenEncoder,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import type { SolanaChain } from "./solana-chain.js";
import { devnetSolanaKeypair, type SolanaKeypair } from "./solana-keypair.js";

const lamportsPerSol = 1_000_000_000n;
const systemProgramAddress = "11111111111111111111111111111111" as Address;

export const solanaDevnetLayout = { users: 8, solvers: 2 } as const;
export const solanaDevnetFunding = {
  user: { sol: 100n * lamportsPerSol, usdc: 1_000_000n * 10n ** 6n },
  solver: { sol: 1000n * lamportsPerSol, usdc: 10_000_000n * 10n ** 6n },
  settler: { sol: 100n * lamportsPerSol },
  faucet: { sol: 500_000_000n * lamportsPerSol },
} as const;
export const usdcDecimals = 6;

/** The stand-in's fixed keys: the faucet, the escrow's settler, the USDC mint and its authority, users and solvers. */
export interface SolanaDevnetKeys {
  faucet: SolanaKeypair;
  settler: SolanaKeypair;
  mintAuthority: SolanaKeypair;
  usdcMint: Address;
  users: SolanaKeypair[];
  solvers: SolanaKeypair[];
}

export function solanaDevnetKeys(): SolanaDevnetKeys {
  return {
    faucet: devnetSolanaKeypair("faucet"),
    settler: devnetSolanaKeypair("escrow settler"),
    mintAuthority: devnetSolanaKeypair("usdc mint authority"),
    usdcMint: devnetSolanaKeypair("usdc mint").address,
    users: Array.from({ length: solanaDevnetLayout.users }, (_, i) => devnetSolanaKeypair(`user ${i}`)),
    solvers: Array.from({ length: solanaDevnetLayout.solvers }, (_, i) => devnetSolanaKeypair(`solver ${i}`)),
  };
}

async function fundUsdc(
  chain: SolanaChain,
  token: { usdcMint: Address; rent: bigint },
  owner: Address,
  amount: bigint,
): Promise<Address> {
  const { usdcMint } = token;
  const [ata] = await findAssociatedTokenPda({
    owner,
    mint: usdcMint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  chain.setGenesisAccount({
    address: ata,
    lamports: token.rent,
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

/**
 * Writes the genesis: faucet, settler, users and solvers funded with SOL and USDC, the USDC mint, and
 * the escrow's vault (the settler's USDC account, empty). Answers the vault's address.
 */
export async function writeSolanaDevnetGenesis(chain: SolanaChain, keys: SolanaDevnetKeys): Promise<Address> {
  const { faucet, settler, mintAuthority, usdcMint, users, solvers } = keys;
  const fundSol = (owner: Address, lamports: bigint) =>
    chain.setGenesisAccount({
      address: owner,
      lamports,
      owner: systemProgramAddress,
      data: new Uint8Array(),
    });
  const rent = chain.minimumBalanceForRentExemption(165);
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
  const tokenAccounts = await Promise.all(
    balances.map(([owner, amount]) => fundUsdc(chain, { usdcMint, rent }, owner, amount)),
  );
  const vault = tokenAccounts.at(-1);
  if (vault === undefined) throw new Error("the Solana devnet funded no vault");
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
  return vault;
}
