import type { ReservationBook } from "@hub/admin";
import type { Clock } from "@hub/clock";
import type { Counters } from "@hub/counters";
import type { AccessStore, AuditStore, DashboardStore, UsageStore } from "@hub/store";
import type { Logger } from "pino";
import type { AttemptRule } from "./auth/attempt-limiter.js";
import type { PasswordHasher } from "./auth/password-hash.js";

export interface DashboardConfig {
  /** The dashboard's own origin as browsers send it (`Origin`); unset: the origin it listens on. */
  publicOrigin?: string;
  /** The API's base URL shown to members (the gateway's `/v1`). */
  apiBaseUrl: string;
  /** A session unused this long ends (default 30 minutes). */
  sessionIdleSeconds?: number;
  /** A session ends this long after sign-in, used or not (default 12 hours). */
  sessionAbsoluteSeconds?: number;
  /**
   * Failed attempts at a password (sign-in, password change) allowed per window: per account and client
   * address, per address, per account from every address (5, 20 and 100 in 15 minutes).
   */
  signInLimits?: Partial<Omit<AttemptRule, "windowMs">> & { windowSeconds?: number };
  /**
   * Networks (CIDR) of the reverse proxies in front: only a request from one of them has its
   * X-Forwarded-For read for the client's address. Empty: the socket's peer is the client.
   */
  trustedProxies?: readonly string[];
  /** Longest a request may take to arrive whole (default 30 s), its head alone (10 s), and an idle keep-alive (72 s). */
  timeouts?: { requestMs?: number; headersMs?: number; keepAliveMs?: number };
}

export interface DashboardDeps {
  config: DashboardConfig;
  /** Without usage the Usage page fails; without audit no action is recorded and the Audit log page fails. */
  store: { access: AccessStore; dashboard: DashboardStore; usage?: UsageStore; audit?: AuditStore };
  /** The hub's reservations, for the operators' reconcile page; without it that page says so. */
  reservations?: ReservationBook;
  clock?: Clock;
  /** Shared counters (Redis across replicas) for the sign-in limits. */
  counters: Counters;
  /** How passwords are hashed; scrypt at N = 2^17 unless a test injects one (to count the hashes). */
  passwordHasher?: PasswordHasher;
  logger: Logger;
}
