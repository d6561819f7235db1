/**
 * A `json` column keeps the text as inserted; a `jsonb` column gives objects back with their keys
 * shorter first, then by their UTF-8 bytes. A value read from a json column that used to be jsonb goes
 * through this, so every reader gets what jsonb gave: the same keys in the same order, at every depth.
 */
export function inJsonbKeyOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(inJsonbKeyOrder) as T;
  if (value === null || typeof value !== "object") return value;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort(compareJsonbKeys)) {
    ordered[key] = inJsonbKeyOrder((value as Record<string, unknown>)[key]);
  }
  return ordered as T;
}

/**
 * A value read from a json column that used to be jsonb: parsed when the driver hands over text, then
 * with its keys in the order the jsonb column gave them.
 */
export function readJsonColumn<T>(value: T | string): T {
  return inJsonbKeyOrder(typeof value === "string" ? (JSON.parse(value) as T) : value);
}

const NON_ASCII = /[\u0080-\uffff]/;

/** PostgreSQL's lengthCompareJsonbString: byte length first, then the bytes. */
function compareJsonbKeys(a: string, b: string): number {
  if (!NON_ASCII.test(a) && !NON_ASCII.test(b)) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length - right.length || Buffer.compare(left, right);
}

/**
 * Whether PostgreSQL's jsonb must check the JSON text before a json column takes it. JSON.stringify
 * writes `\u` only for a control character or an unpaired surrogate; jsonb refuses NUL and unpaired
 * surrogates where json takes them, so a text with `\u` goes in through a jsonb cast and is refused
 * exactly as before.
 */
export function needsJsonbCheck(jsonText: string): boolean {
  return jsonText.includes("\\u");
}
