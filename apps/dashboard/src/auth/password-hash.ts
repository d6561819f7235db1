import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";

/**
 * How passwords are hashed and checked. The dashboard takes one (tests inject a counting one); every
 * call is a full hash, so the sign-in limits are reserved before any of them.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** False for a hash of an older cost or scheme: it is replaced at the account's next successful sign-in. */
  isCurrent(stored: string): boolean;
}

/**
 * scrypt at N = 2^17, r = 8, p = 1 (OWASP's current minimum: 128 MiB and about 0.3 s per hash here,
 * measured in docs/decisions.md); the cost is written beside each hash, so older hashes (N = 2^15)
 * still verify and are upgraded.
 */
export const SCRYPT_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
// 128 * N * r bytes for N = 2^17, r = 8 is exactly 128 MiB; Node refuses at maxmem, so allow more.
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_BYTES,
      { ...options, maxmem: MAX_MEMORY_BYTES },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

const ALLOWED_N = new Set([2 ** 15, 2 ** 16, 2 ** 17, 2 ** 18]);

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export function createScryptHasher(cost: { N: number; r: number; p: number } = SCRYPT_COST): PasswordHasher {
  return {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await derive(password, salt, cost);
      return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64url"), key.toString("base64url")].join(
        "$",
      );
    },
    async verify(password, stored) {
      const [scheme, n, r, p, salt, hash] = stored.split("$");
      // Only the costs this code writes: a stored hash never picks an unbounded cost.
      if (scheme !== "scrypt" || !salt || !hash || !ALLOWED_N.has(Number(n)) || r !== "8" || p !== "1")
        return false;
      const expected = Buffer.from(hash, "base64url");
      const key = await derive(password, Buffer.from(salt, "base64url"), { N: Number(n), r: 8, p: 1 });
      return key.length === expected.length && timingSafeEqual(key, expected);
    },
    isCurrent(stored) {
      return stored.startsWith(`scrypt$${cost.N}$${cost.r}$${cost.p}$`);
    },
  };
}

/**
 * Spends the time of one verification with `hasher`, so an unknown email answers as slowly as a wrong
 * password. The dummy hash is made once, on first use.
 */
export function createVerifyNothing(hasher: PasswordHasher): (password: string) => Promise<false> {
  let dummy: Promise<string> | undefined;
  return async (password) => {
    dummy ??= hasher.hash("a password that is never anybody's");
    await hasher.verify(password, await dummy);
    return false;
  };
}
