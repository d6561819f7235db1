import { privateKeyToAccount } from "viem/accounts";
import type { EvmTransaction, EvmWallet, TypedData } from "../src/index.js";

/**
 * A wallet for the unit tests: it signs for real with a fixed key and records every signature request
 * and transaction; the chain is the end-to-end tests' (examples.slow.test.ts), so here each transaction
 * gets a made-up hash and the receipt status the test names.
 */
export function recordingWallet(options: { reverts?: boolean } = {}) {
  const account = privateKeyToAccount(`0x${"11".repeat(32)}`);
  const typedData: TypedData[] = [];
  const messages: string[] = [];
  const transactions: EvmTransaction[] = [];
  const wallet: EvmWallet = {
    address: account.address,
    async signTypedData(typed) {
      typedData.push(typed);
      const { EIP712Domain: _domain, ...types } = typed.types;
      return account.signTypedData({ ...typed, types } as never);
    },
    async signMessage(message) {
      messages.push(message);
      return account.signMessage({ message });
    },
    async sendTransaction(tx) {
      transactions.push(tx);
      return `0x${String(transactions.length).padStart(64, "0")}`;
    },
    async waitForTransaction() {
      return !options.reverts;
    },
  };
  return { wallet, typedData, messages, transactions };
}
