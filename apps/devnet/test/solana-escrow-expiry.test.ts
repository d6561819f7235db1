import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAdjustableClock } from "@hub/clock";
import { address } from "@solana/kit";
import { pino } from "pino";
import { createSolanaEscrow } from "../src/solana/solana-escrow.js";
import { devnetSolanaKeypair } from "../src/solana/solana-keypair.js";
import { type SolanaDevnet, startSolanaDevnet } from "../src/solana/start-solana-devnet.js";

describe("the Solana escrow's expiry loop", () => {
  let devnet: SolanaDevnet;
  before(async () => {
    devnet = await startSolanaDevnet({
      rpcPort: 0,
      clock: createAdjustableClock(),
      evmChains: [],
      logger: pino({ level: "silent" }),
    });
  });
  after(() => devnet.stop());

  it("reads the vault's history once for an order that expired without a deposit, then forgets it", async () => {
    // The real chain, with its vault-history reads counted.
    let historyReads = 0;
    const chain = {
      ...devnet.chain,
      signaturesForAddress(...args: Parameters<typeof devnet.chain.signaturesForAddress>) {
        historyReads += 1;
        return devnet.chain.signaturesForAddress(...args);
      },
    };
    const escrow = createSolanaEscrow({ chain, settler: devnetSolanaKeypair("escrow settler") });
    const orderId = escrow.register({
      user: address(devnet.manifest.users[0]!.address),
      mint: address(devnet.manifest.tokens[0]!.mint),
      amount: 1_000n,
      expires: devnet.chain.unixTimestamp() + 60,
      nonce: 1n,
      outputHash: `0x${"cd".repeat(32)}`,
    });
    assert.deepEqual(await escrow.refundExpired(), []);
    assert.equal(historyReads, 0, "an order before its expiry costs no history read");
    devnet.chain.increaseTime(61);
    assert.deepEqual(await escrow.refundExpired(), []);
    assert.equal(historyReads, 1);
    assert.deepEqual(await escrow.refundExpired(), []);
    assert.deepEqual(await escrow.refundExpired(), []);
    assert.equal(historyReads, 1, "the expired order without a deposit is not looked at again");
    assert.equal(await escrow.state(orderId), "awaiting-deposit", "its terms are still known");
    assert.ok(escrow.order(orderId));
  });
});
