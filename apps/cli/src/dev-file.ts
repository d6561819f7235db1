import { readFile, rename, writeFile } from "node:fs/promises";
import type { Devnet } from "@hub/devnet-app";
import type { StackConfig } from "./stack-config.js";
import { publicApiBaseUrl } from "./start-dashboard.js";

/** What `.data/dev.json` holds once the stack is ready (DESIGN §4). */
export interface DevFile {
  /** The API's base URL as members reach it: GATEWAY_PUBLIC_BASE_URL, else the gateway's listener. */
  baseUrl: string;
  /** The gateway's own listener (`/v1`), which this machine reaches. */
  gatewayListenerUrl: string;
  dashboardUrl: string;
  /** A one-time link signing in a member of the development organization; null without the devnet. */
  dashboardSignInUrl: string | null;
  hubUrl: string;
  devnetUrl: string | null;
  /** The development organization, its project and key; null without the devnet (HUB_DEVNET=0). */
  orgId: string | null;
  apiKey: string | null;
  projectId: string | null;
  allowedOrigin: string | null;
  /** The web example's origin (HUB_DEV_WEB_ORIGIN), also allowed for the project; null without the devnet. */
  webOrigin: string | null;
  /** Each devnet chain; undeclaredToken is a token the catalog leaves out (the oif-swap-token lane's source). */
  chains: { chainDomain: string; chainId: number; rpcUrl: string; undeclaredToken: string }[];
  accounts: { address: string; privateKey: string }[];
  /** The Solana stand-in chain; empty without the devnet. */
  solanaChains: { chainDomain: string; rpcUrl: string }[];
  /** Funded Solana users: base58 address and 64-byte key pair (a wallet's export). */
  solanaAccounts: { address: string; secretKey: string }[];
}

/** The development key of an earlier start on this data dir, so a restart keeps it. */
export async function readPreviousKey(devFile: string): Promise<string | undefined> {
  try {
    const previous = JSON.parse(await readFile(devFile, "utf8")) as Partial<DevFile>;
    return typeof previous.apiKey === "string" ? previous.apiKey : undefined;
  } catch {
    return undefined;
  }
}

/** Writes dev.json whole or not at all: a reader never sees half of it. */
export async function writeDevFile(path: string, dev: DevFile): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(dev, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

/** dev.json's contents once every part listens. */
export function devFileContents(
  config: StackConfig,
  urls: { gatewayUrl: string; dashboardUrl: string; hubUrl: string; dashboardSignInUrl: string | null },
  devnet: Devnet | undefined,
  development:
    | { orgId: string; apiKey: string; projectId: string; allowedOrigin: string; webOrigin: string }
    | undefined,
): DevFile {
  return {
    baseUrl: publicApiBaseUrl(config, urls.gatewayUrl),
    gatewayListenerUrl: `${urls.gatewayUrl}/v1`,
    dashboardUrl: urls.dashboardUrl,
    dashboardSignInUrl: urls.dashboardSignInUrl,
    hubUrl: urls.hubUrl,
    devnetUrl: devnet?.url ?? null,
    orgId: development?.orgId ?? null,
    apiKey: development?.apiKey ?? null,
    projectId: development?.projectId ?? null,
    allowedOrigin: development?.allowedOrigin ?? null,
    webOrigin: development?.webOrigin ?? null,
    chains: (devnet?.manifest.chains ?? []).map(({ chainDomain, chainId, rpcUrl, contracts }) => ({
      chainDomain,
      chainId,
      rpcUrl,
      undeclaredToken: contracts.undeclaredToken.toLowerCase(),
    })),
    accounts: (devnet?.manifest.users ?? []).map(({ address, privateKey }) => ({ address, privateKey })),
    solanaChains: devnet
      ? [{ chainDomain: devnet.solana.manifest.chainDomain, rpcUrl: devnet.solana.manifest.rpcUrl }]
      : [],
    solanaAccounts: (devnet?.solana.manifest.users ?? []).map(({ address, secretKey }) => ({
      address,
      secretKey,
    })),
  };
}
