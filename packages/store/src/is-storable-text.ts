/**
 * False when PostgreSQL text cannot hold the value (it contains U+0000): no stored key has it, so a
 * lookup by it finds nothing instead of failing the query.
 */
export function isStorableText(value: string): boolean {
  return !value.includes("\u0000");
}
