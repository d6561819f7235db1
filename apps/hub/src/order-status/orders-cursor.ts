import { HubError } from "@hub/contract";

/** Where a page of GET /orders ends: the last entry's submittedAt (microseconds since the epoch) and orderId. */
export interface OrdersCursor {
  submittedAtMicros: string;
  hubOrderId: string;
}

/** At most 16 digits of microseconds (until the year 2286): a larger value overflows the SQL timestamp. */
const DECODED = /^([0-9]{1,16})\.([0-9a-f]{64})$/;

export function encodeOrdersCursor(cursor: OrdersCursor): string {
  return Buffer.from(`${cursor.submittedAtMicros}.${cursor.hubOrderId}`).toString("base64url");
}

/** A cursor the hub did not issue is a bad field (EIN0001, reference `cursor`). */
export function decodeOrdersCursor(value: string): OrdersCursor {
  const match = DECODED.exec(Buffer.from(value, "base64url").toString("latin1"));
  if (!match) {
    throw new HubError("EIN0001", {
      reference: "cursor",
      message: "cursor must be a nextCursor value from an earlier page.",
    });
  }
  return { submittedAtMicros: match[1] as string, hubOrderId: match[2] as string };
}
