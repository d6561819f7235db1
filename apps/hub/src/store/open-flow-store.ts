import type { OrderCreateAck, Watermark } from "@hub/contract";
import type { SqlClient } from "@hub/store";
import { createDepositClaims, type DepositClaims } from "./registrations/deposit-claims.js";
import { listObservationMarks } from "./registrations/observation-marks.js";
import { type OpenFlowRegistration, readRegistration } from "./registrations/read-registration.js";
import { type NewRegistration, registerOrder } from "./registrations/register-order.js";

export type { BridgeLogRecord } from "./registrations/bridge-log-record.js";
export type {
  DepositCandidate,
  DepositClaim,
  DepositMatch,
  ReleaseLogRecord,
} from "./registrations/deposit-claims.js";
export type { OpenFlowRegistration } from "./registrations/read-registration.js";
export type { NewRegistration, RegistrationSignature } from "./registrations/register-order.js";

/** Open-flow registrations (POST /order) and what their status view reads and claims of the bridge logs. */
export interface OpenFlowStore extends DepositClaims {
  /**
   * Records the order in one statement (one transaction): the acked submissions row (route 'order') and
   * its registration. The quote's unique submission decides a race: the loser writes nothing and gets
   * the winner's ack (`created` false).
   */
  register(input: NewRegistration): Promise<{ created: boolean; ack: OrderCreateAck }>;
  /** The acked registration, or undefined for any id that is not one (openFor orders included). */
  readRegistration(orderId: string): Promise<OpenFlowRegistration | undefined>;
  /** The observation marks of the chain domains that have one, in the order asked. */
  listObservationMarks(chainDomains: string[]): Promise<Watermark[]>;
}

export function createOpenFlowStore(sql: SqlClient): OpenFlowStore {
  return {
    register: (input) => registerOrder(sql, input),
    readRegistration: (orderId) => readRegistration(sql, orderId),
    ...createDepositClaims(sql),
    listObservationMarks: (chainDomains) => listObservationMarks(sql, chainDomains),
  };
}
