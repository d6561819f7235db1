// The EIP-3009 lane (aggregator-gasless): quote USDC, sign the inner typed data of {chainId, payload}, register.
import { assetKey, exampleSetup, followAndReport, printStep, quoteOnLane } from "./example-kit.js";

const { client, account, wallet, origin, destination } = await exampleSetup("eip3009", 1);
const quote = await quoteOnLane(
  client,
  {
    sourceAsset: assetKey(origin, "USDC"),
    destinationAsset: assetKey(destination, "USDC"),
    amount: "1500000",
    recipient: account.address,
    sourceAccount: account.address,
  },
  "aggregator-gasless",
);
const order = await client.submit(quote, wallet, { onStep: printStep });
await followAndReport(client, order);
