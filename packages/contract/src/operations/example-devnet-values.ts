import { hubOrderId } from "../ids.js";

// Values as the local devnet (`npm start`) issues them: chains eip155:31337 and eip155:31338, anvil's accounts.
export const USER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
export const USDC_A = "eip155:31337/erc20:0x5fbdb2315678afecb367f032d93f642f64180aa3";
export const USDC_B = "eip155:31338/erc20:0x5fbdb2315678afecb367f032d93f642f64180aa3";
export const ETH_A = "eip155:31337/slip44:60";
export const WETH_B = "eip155:31338/erc20:0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
export const USER_PROXY = "0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9";
export const ESCROW = "0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0";
export const AT = "2026-11-25T21:40:12.345Z";
export const EXPIRES = "2026-11-25T21:40:42.345Z";
export const QUOTE_REQUEST_ID = "qr_r1_Vb3kQ0m2cN8sT5yXw1aZpg";
export const QUOTE_ID = "q_r1_7Hc2mQ9xLk4Tz0bWv3aNdw";
export const HUB_ORDER_ID = hubOrderId(QUOTE_ID);
export const ONCHAIN_ORDER_ID = "0x3b0f5a1c9e2d4f6a8b7c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a";
export const TX_OPEN = "0x8a1c2e3f4b5d6a7c8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d";
export const TX_FILL = "0x1f2e3d4c5b6a79880716253443526170f0e1d2c3b4a5968778695a4b3c2d1e0f";
export const SOLVER = "0x0000000000000000000000003c44cdddb6a900fa2b585dd299e03d12fa4293bc";
export const RECIPIENT_32 = `0x000000000000000000000000${USER.slice(2)}`;
