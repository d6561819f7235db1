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

/** Everything the devnet's off-chain services and tests need to talk to the devnet chains. */
export interface DevnetManifest {
  chains: DevnetChain[];
  users: DevnetAccount[];
  solvers: DevnetAccount[];
  committee: { members: DevnetAccount[]; threshold: number };
  relayer: DevnetAccount;
  deployer: DevnetAccount;
}
