// The Permit2 lane (oif-escrow-gasless): approve the token to Permit2 once, quote, sign the typed data, register.
import {
  approvePermit2,
  assetKey,
  exampleSetup,
  followAndReport,
  printStep,
  quoteOnLane,
} from "./example-kit.js";

const { client, account, wallet, origin, destination, rpcUrls } = await exampleSetup("permit2", 0);
// Approve before quoting: an approval mined while a quote is open can leave the signature on an expired quote.
await approvePermit2(account, rpcUrls[origin.chainId]!, origin, "TKN");
const quote = await quoteOnLane(
  client,
  {
    sourceAsset: assetKey(origin, "TKN"),
    destinationAsset: assetKey(destination, "TKN"),
    amount: "1000000000000000000",
    recipient: account.address,
    sourceAccount: account.address,
  },
  "oif-escrow-gasless",
);
const order = await client.submit(quote, wallet, { onStep: printStep });
await followAndReport(client, order);
