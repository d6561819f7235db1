// EVM → Solana on the EIP-3009 lane (aggregator-gasless): an EVM user's USDC order whose output is paid to a
// Solana recipient's token account; the recipient's balance is read from the Solana RPC before and after.
// USDC declares EIP-3009, which ranks before Permit2, so this is the order a wallet gets for it.
import {
  assetKey,
  exampleSetup,
  followAndReport,
  print,
  printStep,
  quoteOnLane,
  solanaChainOf,
  solanaTokenBalance,
} from "./example-kit.js";

const { dev, client, catalog, account, wallet, origin } = await exampleSetup("evm-to-solana", 7);
const solana = solanaChainOf(catalog, dev);
const recipient = dev.solanaAccounts[1]!.address;
print("solana", `recipient ${recipient} on ${solana.chain.chainDomain}`);

const balance = () => solanaTokenBalance(solana.rpcUrl, solana.chain, "USDC", recipient);
const before = await balance();
const quote = await quoteOnLane(
  client,
  {
    sourceAsset: assetKey(origin, "USDC"),
    destinationAsset: assetKey(solana.chain, "USDC"),
    amount: "2500000",
    recipient,
    sourceAccount: account.address,
  },
  "aggregator-gasless",
);
const order = await client.submit(quote, wallet, { onStep: printStep });
await followAndReport(client, order, async () => {
  const after = await balance();
  print(
    "balance",
    `recipient USDC on ${solana.chain.chainDomain}: ${before} → ${after} (+${after - before})`,
  );
  return { quoted: quote.output.amount, received: (after - before).toString() };
});
