// The injected wallet (EIP-1193 `window.ethereum`): connect, follow its account and chain, switch chains.
import type { EIP1193Provider } from "viem";

declare global {
  interface Window {
    ethereum?: EIP1193Provider;
  }
}

export interface Connected {
  provider: EIP1193Provider;
  address: string;
  chainId: number;
}

export function injectedProvider(): EIP1193Provider | undefined {
  return window.ethereum;
}

/** Asks the wallet for its account (the wallet shows its prompt) and reads its chain. */
export async function connectWallet(onChainChanged: (chainId: number) => void): Promise<Connected> {
  const provider = injectedProvider();
  if (!provider) throw new Error("No wallet found: install a browser wallet.");
  const [address] = await provider.request({ method: "eth_requestAccounts" });
  if (!address) throw new Error("The wallet shared no account.");
  const chainId = Number(await provider.request({ method: "eth_chainId" }));
  provider.on("chainChanged", (id: string) => onChainChanged(Number(id)));
  return { provider, address: address.toLowerCase(), chainId };
}

/** Asks the wallet to switch to `chainId` when it is on another chain (EIP-3326). */
export async function switchChain(wallet: Connected, chainId: number): Promise<void> {
  const current = Number(await wallet.provider.request({ method: "eth_chainId" }));
  if (current === chainId) return;
  await wallet.provider.request({
    method: "wallet_switchEthereumChain",
    params: [{ chainId: `0x${chainId.toString(16)}` }],
  });
  wallet.chainId = chainId;
}
