// The Solana lane (oif-escrow-nonevm): quote USDC on the Solana chain to USDC on eip155:31338 for a Solana
// user, sign the disclosed message with the user's Ed25519 key (@intent-hub/sdk/solana), register the 97-byte
// envelope, follow it to settled and show the EVM recipient's balance before and after.
import { solanaWalletFromSecretKey } from "@intent-hub/sdk/solana";
import {
  assetKey,
  evmTokenBalance,
  exampleSetup,
  followAndReport,
  print,
  printStep,
  quoteOnLane,
  solanaChainOf,
  solanaTokenBalance,
} from "./example-kit.js";

const { dev, client, catalog, account, rpcUrls } = await exampleSetup("solana-to-evm", 6);
const solana = solanaChainOf(catalog, dev);
const destination = catalog.families.evm.find((chain) => chain.chainDomain === "eip155:31338");
if (!destination) throw new Error("the catalog declares no eip155:31338");
const user = dev.solanaAccounts[0]!;
const wallet = await solanaWalletFromSecretKey(user.secretKey);
print("solana", `user ${wallet.address} on ${solana.chain.chainDomain}, recipient ${account.address}`);

const balance = () => evmTokenBalance(rpcUrls[destination.chainId]!, destination, "USDC", account.address);
const before = await balance();
const paidFrom = await solanaTokenBalance(solana.rpcUrl, solana.chain, "USDC", wallet.address);
const quote = await quoteOnLane(
  client,
  {
    sourceAsset: assetKey(solana.chain, "USDC"),
    destinationAsset: assetKey(destination, "USDC"),
    amount: "2500000",
    recipient: account.address,
    sourceAccount: wallet.address,
  },
  "oif-escrow-nonevm",
);
const order = await client.submit(quote, wallet, { onStep: printStep });
await followAndReport(client, order, async () => {
  const after = await balance();
  const paidAfter = await solanaTokenBalance(solana.rpcUrl, solana.chain, "USDC", wallet.address);
  print("balance", `recipient USDC on ${destination.chainDomain}: ${before} → ${after} (+${after - before})`);
  print("balance", `user USDC on ${solana.chain.chainDomain}: ${paidFrom} → ${paidAfter}`);
  return {
    quoted: quote.output.amount,
    received: (after - before).toString(),
    spent: (paidFrom - paidAfter).toString(),
  };
});
