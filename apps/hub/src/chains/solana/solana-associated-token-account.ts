import { createHash } from "node:crypto";
import { decodeBase58, encodeBase58 } from "@hub/chain";

const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const ASSOCIATED_TOKEN_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";
const P = 2n ** 255n - 19n;
const D = (-121665n * modPow(121666n, P - 2n)) % P;

function mod(value: bigint): bigint {
  const r = value % P;
  return r < 0n ? r + P : r;
}

function modPow(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = ((base % P) + P) % P;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}

/** Whether 32 bytes decode to a point of edwards25519 (RFC 8032, 5.1.3): a PDA must not. */
function isOnCurve(bytes: Uint8Array): boolean {
  const copy = Uint8Array.from(bytes);
  copy[31] = (copy[31] as number) & 0x7f;
  const y = BigInt(`0x${Buffer.from(copy).reverse().toString("hex")}`);
  if (y >= P) return false;
  const y2 = mod(y * y);
  const u = mod(y2 - 1n);
  const v = mod(D * y2 + 1n);
  const v3 = mod(v * v * v);
  const x = mod(u * v3 * modPow(mod(u * v3 * v3 * v), (P - 5n) / 8n));
  const vx2 = mod(v * x * x);
  return vx2 === u || vx2 === mod(-u);
}

function key(address: string): Buffer {
  const bytes = decodeBase58(address);
  if (bytes?.length !== 32) throw new Error(`not a Solana public key: ${address}`);
  return Buffer.from(bytes);
}

/** The associated token account of owner for mint (SPL Token), as the ATA program derives it. */
export function solanaAssociatedTokenAccount(owner: string, mint: string): string {
  const seeds = [key(owner), key(TOKEN_PROGRAM), key(mint)];
  const program = key(ASSOCIATED_TOKEN_PROGRAM);
  for (let bump = 255; bump >= 0; bump -= 1) {
    const hash = createHash("sha256");
    for (const seed of seeds) hash.update(seed);
    const candidate = hash
      .update(Uint8Array.of(bump))
      .update(program)
      .update("ProgramDerivedAddress")
      .digest();
    if (!isOnCurve(candidate)) return encodeBase58(candidate);
  }
  throw new Error(`no associated token account for ${owner} and ${mint}`);
}
