import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { bridgeAbi, devnetErc20Abi } from "@hub/chain";
import { systemClock } from "@hub/clock";
import { hubOrderStatusSchema, type OrderCreateAck, onchainFillSchema } from "@hub/contract";
import { createTestDatabases } from "@hub/store";
import { pino } from "pino";
import {
  createWalletClient,
  defineChain,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  type OpenFlowTemplate,
  openFlowTemplateFingerprint,
} from "../../src/providers/external-aggregator/open-flow-template.js";
import { createReconciler, type TickResult } from "../../src/reconciler/index.js";
import { createQuoteStore } from "../../src/store/quote-store.js";
import { call, createTestHubApp, envelopeOf, manualClock } from "../hub-fixture.js";
import { openFlowTemplate } from "../open-flow-order-seed.js";
import { type OrderDevnet, rpc, startOrderDevnet } from "../reconciler-devnet.js";

// The open-flow Bridge on anvil, indexed by the real reconciler with finality two blocks deep: a
// release in a block that is not final yet fills but settles nothing (fill view FILLED, settled false;
// hub status released with final false), and both turn terminal once the release's block is final.
const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const DEPTH = 2;
const AMOUNT = 1_500_000n;

let devnet: OrderDevnet;
before(async () => {
  devnet = await startOrderDevnet();
});
after(async () => {
  await devnet?.stop();
  await databases.dispose();
});

function assertNoChainErrors(result: TickResult): void {
  for (const chain of result.chains)
    assert.equal(chain.error, undefined, `${chain.chainDomain}: ${chain.error}`);
}

function walletOf(chain: OrderDevnet["origin"], privateKey: Hex) {
  return createWalletClient({
    chain: defineChain({
      id: chain.chainId,
      name: chain.chainDomain,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    }),
    account: privateKeyToAccount(privateKey),
    transport: http(chain.rpcUrl),
  });
}

async function mined(client: PublicClient, hash: Hex) {
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  assert.equal(receipt.status, "success");
  return receipt;
}

for (const { driver, skip } of databases.drivers) {
  describe(`bridge transfers and finality on ${driver}`, { skip }, () => {
    test("a release that is not final yet is shown but settles nothing: fill view FILLED, hub status final false; SETTLED and final once its block is final", async () => {
      const db = await databases.open(driver);
      const clock = manualClock(Date.now());
      const hub = createTestHubApp({
        sql: db.sql,
        clock,
        // The quote's provider, configured but never asked: the registration only re-approves the quote.
        providers: [{ id: "ext", kind: "external-aggregator", baseUrl: "http://127.0.0.1:9" }],
      });
      const reconciler = createReconciler({
        sql: db.sql,
        chains: devnet.reconcilerChains().map((chain) => ({ ...chain, finality: { depth: DEPTH } })),
        clock: systemClock,
        logger: pino({ level: "silent" }),
        leaseName: `bridge-finality-${driver}`,
      });
      try {
        const { origin, destination, manifest } = devnet;
        const user = manifest.users[1]!;
        const org = `org_bridge_final_${driver}`;
        const recipient = user.address.toLowerCase() as Hex;
        const ref = keccak256(toHex(`bridge-finality-${driver}-${Date.now()}`));

        // The quote the order registers: an open-flow template naming this deposit and this release.
        const base = openFlowTemplate(
          {
            sourceAccount: recipient,
            source: { chainDomain: origin.chainDomain, chainId: origin.chainId },
            destination: { chainDomain: destination.chainDomain, chainId: destination.chainId },
            deposit: {
              bridge: origin.contracts.bridge.toLowerCase() as Hex,
              token: origin.contracts.usdc.toLowerCase() as Hex,
              amount: AMOUNT.toString(),
              recipient,
              ref,
            },
          },
          `bridge-final-${driver}`,
        );
        const { fingerprint: _, ...body } = {
          ...base,
          recipient,
          source: {
            ...base.source,
            asset: `${origin.chainDomain}/erc20:${origin.contracts.usdc.toLowerCase()}`,
          },
          destination: {
            ...base.destination,
            asset: `${destination.chainDomain}/erc20:${destination.contracts.usdc.toLowerCase()}`,
            amount: AMOUNT.toString(),
          },
        };
        const template: OpenFlowTemplate = { ...body, fingerprint: openFlowTemplateFingerprint(body) };
        const quoteId = `q_r1_bridgefinal${driver}${Date.now()}`;
        const issuedAt = new Date(clock.now());
        await createQuoteStore(db.sql).insert({
          quoteId,
          quoteRequestId: `qr_${quoteId}`,
          orgId: org,
          subject: "user-1",
          replicaId: "r1",
          lane: template.lane,
          providerId: template.providerId,
          preparationId: null,
          requestFingerprint: keccak256(toHex(`${quoteId}-${Date.now()}`)).slice(2),
          winner: { quoteId, disclosure: { signableHash: template.signableHash } },
          template: template as unknown as Record<string, unknown>,
          onchainOrderId: null,
          issuedAt,
          expiresAt: new Date(issuedAt.getTime() + 60_000),
          registrableUntil: new Date(issuedAt.getTime() + 60_000),
        });
        const account = privateKeyToAccount(user.privateKey);
        const registered = envelopeOf(
          await call(hub, "POST", "/v1/order", {
            headers: { "x-service-org": org, "x-service-subject": "user-1" },
            json: {
              quoteId,
              artifactHash: template.signableHash,
              signature: await account.signMessage({ message: template.signIntent ?? "" }),
              signer: account.address,
              scheme: "eip191",
            },
          }),
        );
        assert.equal(registered.success, true, JSON.stringify(registered));
        const { orderId } = registered.data as OrderCreateAck;
        const hubStatus = async () => {
          clock.advance(2_100);
          return hubOrderStatusSchema.parse(
            envelopeOf(await call(hub, "GET", `/v1/status/${orderId}`, { headers: { "x-service-org": org } }))
              .data,
          );
        };
        const fillView = async (id: string) =>
          onchainFillSchema.parse(envelopeOf(await call(hub, "GET", `/v1/onchain/${id}/fill`)).data);

        // The user's deposit on the origin, then the relayer's release on the destination.
        const userWallet = walletOf(origin, user.privateKey);
        await mined(
          devnet.originClient,
          await userWallet.writeContract({
            address: origin.contracts.usdc,
            abi: devnetErc20Abi,
            functionName: "approve",
            args: [origin.contracts.bridge, AMOUNT],
          }),
        );
        const depositReceipt = await mined(
          devnet.originClient,
          await userWallet.writeContract({
            address: origin.contracts.bridge,
            abi: bridgeAbi,
            functionName: "deposit",
            args: [origin.contracts.usdc, AMOUNT, BigInt(destination.chainId), user.address, ref],
          }),
        );
        const depositId = parseEventLogs({
          abi: bridgeAbi,
          logs: depositReceipt.logs,
          eventName: "Deposited",
        })[0]?.args.depositId as Hex;
        await rpc(origin.rpcUrl, "anvil_mine", [`0x${DEPTH.toString(16)}`]);
        assertNoChainErrors(await reconciler.tick());
        const deposited = await hubStatus();
        assert.equal(deposited.state, "deposited");
        assert.equal(deposited.sourceTx?.final, true);

        const releaseReceipt = await mined(
          devnet.destinationClient,
          await walletOf(destination, manifest.relayer.privateKey).writeContract({
            address: destination.contracts.bridge,
            abi: bridgeAbi,
            functionName: "release",
            args: [depositId, destination.contracts.usdc, user.address, AMOUNT],
          }),
        );
        assertNoChainErrors(await reconciler.tick());
        const unsure = await hubStatus();
        assert.equal(unsure.state, "released");
        assert.equal(unsure.final, false, "a release that may still be reorganised away is not final");
        assert.equal(unsure.destinationTx?.txHash, releaseReceipt.transactionHash);
        assert.equal(unsure.destinationTx?.final, false);
        const filling = await fillView(depositId);
        assert.equal(filling.status, "FILLED");
        assert.equal(filling.filled, true);
        assert.equal(filling.settled, false);
        assert.equal(filling.settledTx?.final, false);
        assert.equal(filling.fills[0]?.final, false);
        assert.equal(filling.openTx?.final, true);

        await rpc(destination.rpcUrl, "anvil_mine", [`0x${DEPTH.toString(16)}`]);
        assertNoChainErrors(await reconciler.tick());
        const released = await hubStatus();
        assert.equal(released.state, "released");
        assert.equal(released.final, true);
        assert.equal(released.destinationTx?.final, true);
        const settled = await fillView(depositId);
        assert.equal(settled.status, "SETTLED");
        assert.equal(settled.settled, true);
        assert.equal(settled.settledTx?.final, true);
      } finally {
        await reconciler.stop();
        await hub.close();
        await db.dispose();
      }
    });
  });
}
