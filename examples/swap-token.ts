// The oif-swap-token proxy lane: pay with a token the catalog does not declare, on a chain with a swap router;
// one approval of swapInput.amountMax, one swapAndOpenV2 step, then register unsigned.
import { assetKey, exampleSetup, followAndReport, print, printStep, quoteOnLane } from "./example-kit.js";

const { dev, client, account, wallet, origin, destination } = await exampleSetup("swap-token", 3);
const undeclared = dev.chains.find((chain) => chain.chainId === origin.chainId)?.undeclaredToken;
if (!undeclared) throw new Error("dev.json names no undeclared token for the origin chain");
const quote = await quoteOnLane(
  client,
  {
    sourceAsset: `${origin.chainDomain}/erc20:${undeclared}`,
    destinationAsset: assetKey(destination, "USDC"),
    amount: "2000000000000000000",
    recipient: account.address,
    sourceAccount: account.address,
  },
  "oif-swap-token",
);
print("cost", `swapInput.amountMax ${quote.swapInput?.amountMax} is what the wallet really pays`);
const order = await client.submit(quote, wallet, { onStep: printStep });
await followAndReport(client, order);
