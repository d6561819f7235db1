// EVM → Solana on the Permit2 lane (oif-escrow-gasless): an EVM user's USDC order whose output is paid to a
// Solana recipient's token account; the recipient's balance is read from the Solana RPC before and after.
import {
  approvePermit2,
  assetKey,
  exampleSetup,
  followAndReport,
  print,
  printStep,
  quoteOnLane,
  solanaChainOf,
  solanaTokenBalance,
} from "./example-kit.js";

const { dev, client, catalog, account, wallet, origin, rpcUrls } = await exampleSetup("evm-to-solana", 7);
const solana = solanaChainOf(catalog, dev);
const recipient = dev.solanaAccounts[1]!.address;
print("solana", `recipient ${recipient} on ${solana.chain.chainDomain}`);

const balance = () => solanaTokenBalance(solana.rpcUrl, solana.chain, "USDC", recipient);
const before = await balance();
// Approve before quoting: an approval mined while a quote is open can leave the signature on an expired quote.
await approvePermit2(account, rpcUrls[origin.chainId]!, origin, "USDC");
const quote = await quoteOnLane(
  client,
  {
    sourceAsset: assetKey(origin, "USDC"),
    destinationAsset: assetKey(solana.chain, "USDC"),
    amount: "2500000",
    recipient,
    sourceAccount: account.address,
  },
  "oif-escrow-gasless",
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
