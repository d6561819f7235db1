// The oif-wrap-native proxy lane: pay with the native coin; send the one wrapAndOpen step, then register unsigned.
import { exampleSetup, followAndReport, printStep, quoteOnLane } from "./example-kit.js";

const { client, account, wallet, origin, destination } = await exampleSetup("wrap-native", 2);
if (!destination.wrappedKey) throw new Error(`${destination.chainDomain} has no wrapped native token`);
const quote = await quoteOnLane(
  client,
  {
    sourceAsset: origin.nativeKey,
    destinationAsset: destination.wrappedKey,
    amount: "300000000000000000",
    recipient: account.address,
    sourceAccount: account.address,
  },
  "oif-wrap-native",
);
const order = await client.submit(quote, wallet, { onStep: printStep });
await followAndReport(client, order);
