import { getAddress, type Hex, pad } from "viem";

/** An EVM address left-padded to the bytes32 form OIF uses for cross-chain fields. */
export function addressToBytes32(address: `0x${string}`): Hex {
  return pad(address.toLowerCase() as Hex, { size: 32 });
}

/** The EVM address in the low 20 bytes of a bytes32; throws when the high 12 bytes are not zero. */
export function bytes32ToAddress(value: Hex): `0x${string}` {
  if (!/^0x0{24}[0-9a-fA-F]{40}$/.test(value))
    throw new Error(`${value} is not an EVM address in bytes32 form`);
  return getAddress(`0x${value.slice(26)}`);
}
