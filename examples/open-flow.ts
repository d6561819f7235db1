// The open flow: an external aggregator's bridge winner; send executionTx, personal_sign signIntent, POST /order.
import { assetKey, exampleSetup, followAndReport, printStep, quoteOnLane } from "./example-kit.js";

const { client, account, wallet, origin, destination } = await exampleSetup("open-flow", 4);
const quote = await quoteOnLane(
  client,
  {
    sourceAsset: assetKey(origin, "USDC"),
    destinationAsset: assetKey(destination, "USDC"),
    amount: "1500000",
    recipient: account.address,
    // Without sourceAccount the winner carries no signIntent and cannot be registered signed.
    sourceAccount: account.address,
  },
  "open-flow",
);
const order = await client.submit(quote, wallet, { onStep: printStep });
await followAndReport(client, order);
