const RANGE_MESSAGES = [
  /block range/i,
  /range (is )?too (large|wide|big)/i,
  /more than \d+ results/i,
  /exceed(s|ed)? (the )?max(imum)? (block )?range/i,
  /response size (exceeded|is larger)/i,
  /too many (results|logs|blocks)/i,
  /limit exceeded/i,
  /query timeout exceeded/i,
  /block range should work/i,
  /\[0x[0-9a-f]+, ?0x[0-9a-f]+\]/i,
];

/** Whether a JSON-RPC error of eth_getLogs says the range or its result is too large. */
export function isRangeRefusal(code: number | undefined, message: string): boolean {
  if (RANGE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  // -32005 is "limit exceeded" (Infura: too many results); -32602 alone is any invalid parameter.
  return code === -32005;
}
