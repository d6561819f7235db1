import { z } from "zod";

const evmAddress = z.string().regex(/^0x[0-9a-f]{40}$/, "lowercase 0x-prefixed 20-byte address");

/** One asset a chain declares. `key` is CAIP-19: `eip155:<id>/erc20:<address>` or `eip155:<id>/slip44:60`. */
export const catalogAssetSchema = z.object({
  key: z.string(),
  symbol: z.string(),
  decimals: z.number().int().min(0).max(36),
  /** Token contract; absent for the native coin. */
  address: evmAddress.optional(),
  /** Signature lanes the token supports beyond Permit2, e.g. `eip3009`. */
  authorizations: z.array(z.enum(["permit2", "eip3009", "eip2612"])).default(["permit2"]),
});

/** One chain of the deployment, with the contracts that decide what it accepts as a source. */
export const catalogChainSchema = z.object({
  chainDomain: z.string(),
  chainId: z.number().int().positive(),
  name: z.string(),
  /** The native coin: its symbol and decimals. */
  native: z.object({ symbol: z.string(), decimals: z.number().int() }),
  /** CAIP-19 key of the native coin. */
  nativeKey: z.string(),
  /** CAIP-19 key of the wrapped native token, when the chain has one. */
  wrappedKey: z.string().optional(),
  /** Router that swaps an undeclared token into a declared one, when the chain has one. */
  swapRouter: evmAddress.optional(),
  /** Proxy that opens escrow orders for the user (wrapAndOpen, swapAndOpenV2). */
  userProxy: evmAddress.optional(),
  /** Bridge an external aggregator's open-flow deposit must go to, when the chain has one. */
  bridge: evmAddress.optional(),
  /** Input settlers by kind; they change when the hub is redeployed. */
  inputSettlers: z.object({ escrow: evmAddress }),
  outputSettler: evmAddress,
  inputOracle: evmAddress,
  permit2: evmAddress,
  /**
   * The block the chain's settlers were deployed in: the reconciler starts reading there. Without it
   * a new deployment reads the chain from its first block, which on a public chain takes long.
   */
  deployBlock: z.number().int().nonnegative().optional(),
  /**
   * When a block of this chain is final (docs/order-states.md): by the RPC's `finalized` or `safe` tag,
   * or once `depth` blocks are on top of it. Absent: the `finalized` tag.
   */
  finality: z
    .union([
      z.object({ tag: z.enum(["finalized", "safe"]) }).strict(),
      z.object({ depth: z.number().int().nonnegative().max(10_000) }).strict(),
    ])
    .optional(),
  assets: z.array(catalogAssetSchema),
});

const base58Key = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, "base58 public key (32 bytes)")
  .describe("A Solana public key, base58.");

/** One SPL token a Solana chain declares. `key` is CAIP-19: `solana:<ref>/token:<mint>`. */
export const catalogSolanaAssetSchema = z.object({
  key: z.string(),
  symbol: z.string(),
  decimals: z.number().int().min(0).max(18),
  mint: base58Key,
});

/**
 * One Solana chain of the deployment (docs/decisions/solana-lane.md): the escrow's vault per mint that
 * deposits go to, and the account that Solana outputs name as their settler and oracle.
 */
export const catalogSolanaChainSchema = z.object({
  chainDomain: z.string().regex(/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/),
  name: z.string(),
  /** base58 of the 32-byte genesis hash. */
  genesisHash: base58Key,
  /** The genesis hash as one big-endian uint256, decimal: the chain id OIF orders name it by. */
  oifChainId: z.string().regex(/^[0-9]{1,78}$/),
  native: z.object({ symbol: z.string(), decimals: z.number().int() }),
  /** CAIP-19 key of the native coin (`solana:<ref>/slip44:501`). */
  nativeKey: z.string(),
  escrow: z.object({
    /** The authority that releases and refunds deposits. */
    settler: base58Key,
    /** The escrow's vault token account per mint. */
    vaults: z.array(z.object({ mint: base58Key, vault: base58Key })),
  }),
  /** The account a fill on this chain names as its output settler and oracle. */
  outputSettler: base58Key,
  /**
   * The commitment at which a transaction of this chain is final and indexed (docs/order-states.md).
   * Absent: `finalized`.
   */
  commitment: z.enum(["finalized", "confirmed"]).optional(),
  assets: z.array(catalogSolanaAssetSchema),
});

/** The catalog: the deployment's chains and assets, grouped by chain family. */
export const catalogSchema = z.object({
  families: z.object({
    evm: z.array(catalogChainSchema),
    solana: z.array(catalogSolanaChainSchema).default([]),
  }),
});

/** One asset of the catalog. */
export type CatalogAsset = z.infer<typeof catalogAssetSchema>;
/** One chain of the catalog. */
export type CatalogChain = z.infer<typeof catalogChainSchema>;
/** One SPL token of the catalog. */
export type CatalogSolanaAsset = z.infer<typeof catalogSolanaAssetSchema>;
/** One Solana chain of the catalog. */
export type CatalogSolanaChain = z.infer<typeof catalogSolanaChainSchema>;
/** The catalog as the wire carries it. */
export type Catalog = z.infer<typeof catalogSchema>;
