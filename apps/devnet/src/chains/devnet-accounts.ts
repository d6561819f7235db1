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

/**
 * The accounts deriveDevnetAccounts() gives for DEVNET_MNEMONIC, written out: deriving them costs a
 * second of CPU at every devnet start, and a test holds this table equal to the derivation.
 */
export const devnetAccountTable: readonly DevnetAccount[] = [
  {
    address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  },
  {
    address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  },
  {
    address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    privateKey: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  },
  {
    address: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    privateKey: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  },
  {
    address: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
    privateKey: "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  },
  {
    address: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    privateKey: "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  },
  {
    address: "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
    privateKey: "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
  },
  {
    address: "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
    privateKey: "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
  },
  {
    address: "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f",
    privateKey: "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
  },
  {
    address: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
    privateKey: "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
  },
  {
    address: "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
    privateKey: "0xf214f2b2cd398c806f84e317254e0f0b801d0643303237d97a22a48e01628897",
  },
  {
    address: "0x71bE63f3384f5fb98995898A86B02Fb2426c5788",
    privateKey: "0x701b615bbdfb9de65240bc28bd21bbc0d996645a3dd57e7b12bc2bdf6f192c82",
  },
  {
    address: "0xFABB0ac9d68B0B445fB7357272Ff202C5651694a",
    privateKey: "0xa267530f49f8280200edf313ee7af6b827f2a8bce2897751d06a843f644967b1",
  },
  {
    address: "0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec",
    privateKey: "0x47c99abed3324a2707c28affff1267e45918ec8c3f20b8aa892e8b065d2942dd",
  },
  {
    address: "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097",
    privateKey: "0xc526ee95bf44d8fc405a158bb884d9d1238d99f0612e9f33d006bb0789009aaa",
  },
];

/** The devnet's fixed accounts (deployer, relayer, committee, solvers, users), from the table. */
export function devnetAccounts(): DevnetAccounts {
  return layoutAccounts([...devnetAccountTable]);
}

/** Derives the devnet's fixed accounts: deployer, relayer, committee members, solvers, users, in that order. */
export function deriveDevnetAccounts(mnemonic: string = DEVNET_MNEMONIC): DevnetAccounts {
  // BIP-39 seed through node's native PBKDF2: viem's pure-JS path takes seconds for a dozen keys.
  const seed = pbkdf2Sync(mnemonic.normalize("NFKD"), "mnemonic", 2048, 64, "sha512");
  const base = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'/0");
  const all: DevnetAccount[] = [];
  for (let i = 0; i < devnetAccountCount; i++) {
    const key = base.deriveChild(i).privateKey;
    if (key === null) throw new Error(`devnet account ${i} derives no private key`);
    const privateKey = toHex(key);
    all.push({ address: privateKeyToAccount(privateKey).address, privateKey });
  }
  return layoutAccounts(all);
}

function layoutAccounts(all: DevnetAccount[]): DevnetAccounts {
  const solversFrom = 2 + devnetAccountLayout.committee;
  const usersFrom = solversFrom + devnetAccountLayout.solvers;
  const [deployer, relayer] = all;
  if (deployer === undefined || relayer === undefined)
    throw new Error("the devnet derives fewer than two accounts");
  return {
    deployer,
    relayer,
    committee: all.slice(2, solversFrom),
    solvers: all.slice(solversFrom, usersFrom),
    users: all.slice(usersFrom),
    all,
  };
}
