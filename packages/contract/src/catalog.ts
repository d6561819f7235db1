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
  assets: z.array(catalogAssetSchema),
});

/** The catalog: the deployment's chains and assets, grouped by chain family. */
export const catalogSchema = z.object({
  families: z.object({
    evm: z.array(catalogChainSchema),
    solana: z.array(z.unknown()).default([]),
  }),
});

/** One asset of the catalog. */
export type CatalogAsset = z.infer<typeof catalogAssetSchema>;
/** One chain of the catalog. */
export type CatalogChain = z.infer<typeof catalogChainSchema>;
/** The catalog as the wire carries it. */
export type Catalog = z.infer<typeof catalogSchema>;
