/** A funded devnet key pair (fixed mnemonic derived; never used outside the devnet). */
export interface DevnetAccount {
  address: `0x${string}`;
  privateKey: `0x${string}`;
}

/** Addresses of every contract deployed on one devnet chain. */
export interface DevnetChainContracts {
  permit2: `0x${string}`;
  inputSettlerEscrow: `0x${string}`;
  outputSettler: `0x${string}`;
  committeeOracle: `0x${string}`;
  usdc: `0x${string}`;
  token: `0x${string}`;
  wrappedNative: `0x${string}`;
  userProxy: `0x${string}`;
  swapRouter: `0x${string}`;
  undeclaredToken: `0x${string}`;
  bridge: `0x${string}`;
}

export interface DevnetChain {
  /** CAIP-2 chain id, "eip155:<id>". */
  chainDomain: string;
  chainId: number;
  rpcUrl: string;
  contracts: DevnetChainContracts;
  /** Block in which the first contract was deployed; log scans start here. */
  deployBlock: number;
}

/** A funded Solana devnet key pair: base58 address and the 64-byte key pair in base58 (a wallet's export). */
export interface DevnetSolanaAccount {
  address: string;
  secretKey: string;
}

/** An SPL token of the Solana devnet chain and the EVM tokens it stands for (its counterparts). */
export interface DevnetSolanaToken {
  symbol: string;
  /** CAIP-19, `solana:<ref>/token:<mint>`. */
  assetKey: string;
  mint: string;
  decimals: number;
  /** CAIP-19 keys of the same token on the EVM devnet chains (`eip155:<id>/erc20:<address>`). */
  counterparts: string[];
}

/** The Solana stand-in chain (litesvm behind a Solana JSON-RPC server). */
export interface DevnetSolanaChain {
  /** `solana:<first 32 characters of the genesis hash>`; the same on every start. */
  chainDomain: string;
  genesisHash: string;
  rpcUrl: string;
  tokens: DevnetSolanaToken[];
  /** The escrow stand-in: the settler authority and its vault token account per token mint. */
  escrow: { settler: DevnetSolanaAccount; vaults: { mint: string; vault: string }[] };
  users: DevnetSolanaAccount[];
  solvers: DevnetSolanaAccount[];
}

/** Everything the devnet's off-chain services and tests need to talk to the devnet chains. */
export interface DevnetManifest {
  chains: DevnetChain[];
  users: DevnetAccount[];
  solvers: DevnetAccount[];
  committee: { members: DevnetAccount[]; threshold: number };
  relayer: DevnetAccount;
  deployer: DevnetAccount;
  /** The Solana stand-in chain; absent from a manifest of EVM chains alone. */
  solana?: DevnetSolanaChain;
}

/**
 * How deep a devnet EVM block must be to count as final (the catalog the devnet writes says so). The
 * devnet mines an empty block every `devnetIdleBlockMs` while a chain is idle, so a fill is final within
 * about two seconds; transactions still mine at once (automine).
 */
export const devnetFinalityDepth = 2;
export const devnetIdleBlockMs = 1000;
