import { hubOrderId } from "../ids.js";
import type { OperationId } from "../route-table.js";
import { signableHash } from "../signable-hash.js";

/** One operation's example: what a client sends and what it gets back (the success envelope's data). */
export interface OperationExample {
  readonly pathParameters?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly requestBody?: unknown;
  readonly responseData: unknown;
}

// Values as the local devnet (`npm start`) issues them: chains eip155:31337 and eip155:31338, anvil's accounts.
const USER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const USDC_A = "eip155:31337/erc20:0x5fbdb2315678afecb367f032d93f642f64180aa3";
const USDC_B = "eip155:31338/erc20:0x5fbdb2315678afecb367f032d93f642f64180aa3";
const ETH_A = "eip155:31337/slip44:60";
const WETH_B = "eip155:31338/erc20:0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const USER_PROXY = "0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9";
const ESCROW = "0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0";
const AT = "2026-11-25T21:40:12.345Z";
const EXPIRES = "2026-11-25T21:40:42.345Z";
const QUOTE_REQUEST_ID = "qr_r1_Vb3kQ0m2cN8sT5yXw1aZpg";
const QUOTE_ID = "q_r1_7Hc2mQ9xLk4Tz0bWv3aNdw";
const HUB_ORDER_ID = hubOrderId(QUOTE_ID);
const ONCHAIN_ORDER_ID = "0x3b0f5a1c9e2d4f6a8b7c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a";
const TX_OPEN = "0x8a1c2e3f4b5d6a7c8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d";
const TX_FILL = "0x1f2e3d4c5b6a79880716253443526170f0e1d2c3b4a5968778695a4b3c2d1e0f";
const SOLVER = "0x0000000000000000000000003c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const RECIPIENT_32 = `0x000000000000000000000000${USER.slice(2)}`;

const quoteRequest = {
  sourceAsset: ETH_A,
  destinationAsset: WETH_B,
  amount: "50000000000000000",
  recipient: USER,
  sourceAccount: USER,
  swapType: "exact-input",
};
const terms = {
  provider: "devnet",
  lane: "oif-wrap-native",
  executionClass: "OIF_ESCROW",
  input: { asset: ETH_A, amount: "50000000000000000" },
  output: { asset: WETH_B, amount: "49850000000000000" },
  swapType: "exact-input",
};
const wrapNativeTx = {
  approvals: [],
  steps: [
    {
      chainId: 31337,
      to: USER_PROXY,
      data: "0x5c1f6a0e00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8",
      value: "50000000000000000",
      description: "wrapAndOpen: wrap 0.05 ETH and open the escrow order",
    },
  ],
};
const wrapNativePayload = {
  kind: "oif-wrap-native",
  executionTx: wrapNativeTx,
  terms: { ...terms, recipient: USER, onchainOrderId: ONCHAIN_ORDER_ID },
};

const permit2Request = {
  ...quoteRequest,
  sourceAsset: USDC_A,
  destinationAsset: USDC_B,
  amount: "25000000",
  preparationId: "checkout-8841-attempt-1",
  provider: "devnet",
};
const permit2TypedData = {
  domain: {
    name: "Permit2",
    chainId: 31337,
    verifyingContract: "0x000000000022d473030f116ddee9f6b43ac78ba3",
  },
  types: {
    PermitBatchWitnessTransferFrom: [
      { name: "permitted", type: "TokenPermissions[]" },
      { name: "spender", type: "address" },
      { name: "nonce", type: "uint256" },
      { name: "deadline", type: "uint256" },
      { name: "witness", type: "Permit2Witness" },
    ],
    TokenPermissions: [
      { name: "token", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    Permit2Witness: [
      { name: "user", type: "address" },
      { name: "expires", type: "uint32" },
      { name: "inputOracle", type: "address" },
      { name: "outputs", type: "MandateOutput[]" },
    ],
    MandateOutput: [
      { name: "oracle", type: "bytes32" },
      { name: "settler", type: "bytes32" },
      { name: "chainId", type: "uint256" },
      { name: "token", type: "bytes32" },
      { name: "amount", type: "uint256" },
      { name: "recipient", type: "bytes32" },
      { name: "callbackData", type: "bytes" },
      { name: "context", type: "bytes" },
    ],
  },
  primaryType: "PermitBatchWitnessTransferFrom",
  message: {
    permitted: [{ token: "0x5fbdb2315678afecb367f032d93f642f64180aa3", amount: "25000000" }],
    spender: ESCROW,
    nonce: "1764106812345",
    deadline: "1764107112",
    witness: {
      user: USER,
      expires: 1764107112,
      inputOracle: "0xdc64a140aa3e981100a9beca4e685f962f0cf6c9",
      outputs: [
        {
          oracle: "0x000000000000000000000000dc64a140aa3e981100a9beca4e685f962f0cf6c9",
          settler: "0x0000000000000000000000005fc8d32690cc91d4c39d9d3abcbd16989f875707",
          chainId: "31338",
          token: "0x0000000000000000000000005fbdb2315678afecb367f032d93f642f64180aa3",
          amount: "24925000",
          recipient: RECIPIENT_32,
          callbackData: "0x",
          context: "0x",
        },
      ],
    },
  },
};
const permit2Terms = {
  ...terms,
  lane: "oif-escrow-gasless",
  input: { asset: USDC_A, amount: "25000000" },
  output: { asset: USDC_B, amount: "24925000" },
};
const permit2Payload = {
  kind: "oif-escrow-gasless",
  signPayload: permit2TypedData,
  typedDataHash: "0x6d1c4a3e5f7b9d0c2e4f6a8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f",
  terms: { ...permit2Terms, recipient: USER },
};

const openFlowTx = {
  approvals: [
    { chainId: "eip155:31337", token: USDC_A.split(":").at(-1), spender: ESCROW, amount: "25000000" },
  ],
  steps: [
    {
      chainId: "eip155:31337",
      to: ESCROW,
      data: "0x7b9391a20000000000000000000000005fbdb2315678afecb367f032d93f642f64180aa3",
      value: "0",
      description: "Deposit into the bridge",
    },
  ],
};
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
