import {
  ESCROW,
  ETH_A,
  ONCHAIN_ORDER_ID,
  RECIPIENT_32,
  USDC_A,
  USDC_B,
  USER,
  USER_PROXY,
  WETH_B,
} from "./example-devnet-values.js";

// What the devnet's quotes carry: the requests, terms and transactions the examples answer with.
export const quoteRequest = {
  sourceAsset: ETH_A,
  destinationAsset: WETH_B,
  amount: "50000000000000000",
  recipient: USER,
  sourceAccount: USER,
  swapType: "exact-input",
};
export const terms = {
  provider: "devnet",
  lane: "oif-wrap-native",
  executionClass: "OIF_ESCROW",
  input: { asset: ETH_A, amount: "50000000000000000" },
  output: { asset: WETH_B, amount: "49850000000000000" },
  swapType: "exact-input",
};
export const wrapNativeTx = {
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
export const wrapNativePayload = {
  kind: "oif-wrap-native",
  executionTx: wrapNativeTx,
  terms: { ...terms, recipient: USER, onchainOrderId: ONCHAIN_ORDER_ID },
};

export const permit2Request = {
  ...quoteRequest,
  sourceAsset: USDC_A,
  destinationAsset: USDC_B,
  amount: "25000000",
  preparationId: "checkout-8841-attempt-1",
  provider: "devnet",
};
export const permit2TypedData = {
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
export const permit2Terms = {
  ...terms,
  lane: "oif-escrow-gasless",
  input: { asset: USDC_A, amount: "25000000" },
  output: { asset: USDC_B, amount: "24925000" },
};
export const permit2Payload = {
  kind: "oif-escrow-gasless",
  signPayload: permit2TypedData,
  typedDataHash: "0x6d1c4a3e5f7b9d0c2e4f6a8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f",
  terms: { ...permit2Terms, recipient: USER },
};

export const openFlowTx = {
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
