import type { OperationId } from "../route-table.js";
import { signableHash } from "../signable-hash.js";
import {
  AT,
  ESCROW,
  ETH_A,
  EXPIRES,
  HUB_ORDER_ID,
  ONCHAIN_ORDER_ID,
  QUOTE_ID,
  QUOTE_REQUEST_ID,
  RECIPIENT_32,
  SOLVER,
  TX_FILL,
  TX_OPEN,
  USDC_A,
  USDC_B,
  USER,
  USER_PROXY,
} from "./example-devnet-values.js";
import {
  openFlowTx,
  permit2Payload,
  permit2Request,
  permit2Terms,
  permit2TypedData,
  quoteRequest,
  terms,
  wrapNativePayload,
  wrapNativeTx,
} from "./example-quote-payloads.js";

/** One operation's example: what a client sends and what it gets back (the success envelope's data). */
export interface OperationExample {
  readonly pathParameters?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly requestBody?: unknown;
  readonly responseData: unknown;
}

const event = (txHash: string, chainDomain: string, blockNumber: number) => ({
  chainDomain,
  txHash,
  blockNumber,
  at: AT,
});
const watermarks = [
  { chainDomain: "eip155:31337", blockNumber: 214, observedAt: AT },
  { chainDomain: "eip155:31338", blockNumber: 198, observedAt: AT },
];

/** A realistic example of every operation, checked against the contract's schemas by the contract's tests. */
export const operationExamples: Readonly<Record<OperationId, OperationExample>> = {
  getCatalog: {
    responseData: {
      families: {
        evm: [
          {
            chainDomain: "eip155:31337",
            chainId: 31337,
            name: "Devnet A",
            native: { symbol: "ETH", decimals: 18 },
            nativeKey: ETH_A,
            wrappedKey: "eip155:31337/erc20:0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
            swapRouter: "0xa513e6e4b8f2a923d98304ec87f64353c4d5c853",
            userProxy: USER_PROXY,
            inputSettlers: { escrow: ESCROW },
            outputSettler: "0x5fc8d32690cc91d4c39d9d3abcbd16989f875707",
            inputOracle: "0xdc64a140aa3e981100a9beca4e685f962f0cf6c9",
            permit2: "0x000000000022d473030f116ddee9f6b43ac78ba3",
            assets: [
              {
                key: USDC_A,
                symbol: "USDC",
                decimals: 6,
                address: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
                authorizations: ["permit2", "eip3009"],
              },
            ],
          },
        ],
        solana: [],
      },
    },
  },
  getOpenapi: { responseData: "openapi: 3.1.0\ninfo:\n  title: Intent swap and bridge hub API\n…" },
  createQuote: {
    requestBody: quoteRequest,
    responseData: {
      quoteRequestId: QUOTE_REQUEST_ID,
      quoteId: QUOTE_ID,
      expiresAt: EXPIRES,
      ...terms,
      recipient: USER,
      sourceAccount: USER,
      onchainOrderId: ONCHAIN_ORDER_ID,
      disclosure: { signablePayload: wrapNativePayload, signableHash: signableHash(wrapNativePayload) },
      executionTx: wrapNativeTx,
    },
  },
  previewQuote: {
    requestBody: { ...quoteRequest, sourceAsset: USDC_A, destinationAsset: USDC_B, amount: "25000000" },
    responseData: {
      quoteRequestId: QUOTE_REQUEST_ID,
      offers: [
        { ...permit2Terms, etaSeconds: 20 },
        {
          ...permit2Terms,
          provider: "devnet-external",
          lane: "open-flow",
          executionClass: "BRIDGE",
          etaSeconds: 90,
        },
      ],
    },
  },
  prepareQuote: {
    requestBody: permit2Request,
    responseData: {
      quoteRequestId: QUOTE_REQUEST_ID,
      quoteId: QUOTE_ID,
      expiresAt: EXPIRES,
      ...permit2Terms,
      recipient: USER,
      sourceAccount: USER,
      disclosure: { signablePayload: permit2Payload, signableHash: signableHash(permit2Payload) },
      signPayload: permit2TypedData,
      preparationId: permit2Request.preparationId,
    },
  },
  submitOpenForOrder: {
    requestBody: {
      quoteRequestId: QUOTE_REQUEST_ID,
      quoteId: QUOTE_ID,
      signature: `0x00${"4f".repeat(32)}${"1a".repeat(32)}1b`,
    },
    responseData: {
      orderId: ONCHAIN_ORDER_ID,
      hubOrderId: HUB_ORDER_ID,
      quoteId: QUOTE_ID,
      state: "created",
      submittedAt: AT,
    },
  },
  createOrder: {
    requestBody: {
      quoteId: QUOTE_ID,
      artifactHash: signableHash({ kind: "open-flow", executionTx: openFlowTx }),
      signature: `0x${"5e".repeat(32)}${"27".repeat(32)}1c`,
      signer: USER,
      scheme: "eip191",
    },
    responseData: { orderId: HUB_ORDER_ID, quoteId: QUOTE_ID, createdAt: AT },
  },
  getOrderStatus: {
    pathParameters: { orderId: HUB_ORDER_ID },
    responseData: {
      orderId: HUB_ORDER_ID,
      quoteId: QUOTE_ID,
      onchainOrderId: ONCHAIN_ORDER_ID,
      state: "executed",
      stateSource: "upstream-advisory",
      finalityVerified: false,
      upstreamFillReported: true,
      fillTransaction: TX_FILL,
      history: [
        { state: "created", at: "2026-11-25T21:40:13.001Z" },
        { state: "executed", at: AT },
      ],
      rejectedUpstreamTransition: false,
      upstreamStale: false,
      updatedAt: AT,
    },
  },
  getHubStatus: {
    pathParameters: { orderId: HUB_ORDER_ID },
    responseData: {
      orderId: HUB_ORDER_ID,
      quoteId: QUOTE_ID,
      lane: "open-flow",
      state: "released",
      final: true,
      depositId: "0x00000000000000000000000000000000000000000000000000000000000000a7",
      sourceTx: event(TX_OPEN, "eip155:31337", 212),
      destinationTx: { ...event(TX_FILL, "eip155:31338", 197), amount: "24925000" },
      watermarks,
      createdAt: "2026-11-25T21:40:13.001Z",
      updatedAt: AT,
    },
  },
  listOrders: {
    query: { limit: "20" },
    responseData: {
      subject: "user-42",
      orders: [
        {
          orderId: HUB_ORDER_ID,
          quoteId: QUOTE_ID,
          lane: "oif-escrow-gasless",
          onchainOrderId: ONCHAIN_ORDER_ID,
          onchainOrderIdSource: "upstream",
          submittedAt: AT,
          state: "executed",
          inputs: [{ chainDomain: "eip155:31337", asset: USDC_A, amount: "25000000" }],
          chain: { status: "OPEN", openTx: event(TX_OPEN, "eip155:31337", 212), fills: [] },
        },
      ],
      nextCursor: null,
    },
  },
  getOnchainFill: {
    pathParameters: { orderId: ONCHAIN_ORDER_ID },
    responseData: {
      orderId: ONCHAIN_ORDER_ID,
      filled: true,
      settled: true,
      status: "SETTLED",
      fills: [
        {
          ...event(TX_FILL, "eip155:31338", 197),
          amount: "24925000",
          recipient: RECIPIENT_32,
          solver: SOLVER,
          outputIndex: 0,
          inTime: true,
        },
      ],
      settledTx: event(
        "0x9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa998877665544",
        "eip155:31337",
        214,
      ),
      watermarks,
    },
  },
  getOrderByTransaction: {
    pathParameters: { chainDomain: "eip155:31337", txHash: TX_OPEN },
    responseData: {
      chainDomain: "eip155:31337",
      txHash: TX_OPEN,
      orderId: ONCHAIN_ORDER_ID,
      event: "open",
      watermark: watermarks[0],
    },
  },
  getOnchainRefund: {
    pathParameters: { orderId: ONCHAIN_ORDER_ID },
    responseData: {
      orderId: ONCHAIN_ORDER_ID,
      refundable: false,
      reason: "settled",
    },
  },
  getOnchainOrder: {
    pathParameters: { orderId: ONCHAIN_ORDER_ID },
    responseData: {
      orderId: ONCHAIN_ORDER_ID,
      chainDomain: "eip155:31337",
      settler: ESCROW,
      order: {
        user: USER,
        nonce: "1764106812345",
        originChainId: "31337",
        expires: "1764107112",
        fillDeadline: "1764107052",
        inputOracle: "0xdc64a140aa3e981100a9beca4e685f962f0cf6c9",
        inputs: [["545423130374599004357045095133412187651931418531", "25000000"]],
        outputs: [permit2TypedData.message.witness.outputs[0]],
      },
      openTx: event(TX_OPEN, "eip155:31337", 212),
    },
  },
};
