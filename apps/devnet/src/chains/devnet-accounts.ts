import { pbkdf2Sync } from "node:crypto";
import type { DevnetAccount } from "@hub/chain";
import { toHex } from "viem";
import { HDKey, privateKeyToAccount } from "viem/accounts";

/** anvil's well-known test mnemonic: every devnet key is public and worthless. */
export const DEVNET_MNEMONIC = "test test test test test test test test test test test junk";

export interface DevnetAccounts {
  deployer: DevnetAccount;
  relayer: DevnetAccount;
  committee: DevnetAccount[];
  solvers: DevnetAccount[];
  users: DevnetAccount[];
  /** Every account, in derivation order (index i = m/44'/60'/0'/0/i). */
  all: DevnetAccount[];
}

export const devnetAccountLayout = { committee: 3, solvers: 2, users: 8 } as const;
export const devnetAccountCount =
  2 + devnetAccountLayout.committee + devnetAccountLayout.solvers + devnetAccountLayout.users;

/** Derives the devnet's fixed accounts: deployer, relayer, committee members, solvers, users, in that order. */
export function deriveDevnetAccounts(mnemonic: string = DEVNET_MNEMONIC): DevnetAccounts {
  // BIP-39 seed through node's native PBKDF2: viem's pure-JS path takes seconds for a dozen keys.
  const seed = pbkdf2Sync(mnemonic.normalize("NFKD"), "mnemonic", 2048, 64, "sha512");
  const base = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0");
  const all: DevnetAccount[] = [];
  for (let i = 0; i < devnetAccountCount; i++) {
    const privateKey = toHex(base.deriveChild(i).privateKey!);
    all.push({ address: privateKeyToAccount(privateKey).address, privateKey });
  }
  const solversFrom = 2 + devnetAccountLayout.committee;
  const usersFrom = solversFrom + devnetAccountLayout.solvers;
  return {
    deployer: all[0]!,
    relayer: all[1]!,
    committee: all.slice(2, solversFrom),
    solvers: all.slice(solversFrom, usersFrom),
    users: all.slice(usersFrom),
    all,
  };
}
