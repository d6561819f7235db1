/** A lone UTF-16 surrogate: a paired one is part of a code point above U+FFFF and never matches. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** Whether PostgreSQL's jsonb can hold the text: no NUL, no unpaired surrogate. */
export function storable(text: string): boolean {
  return !text.includes("\0") && !UNPAIRED_SURROGATE.test(text);
}

/**
 * The path of the first string (value or key) in the answer that jsonb cannot store, or undefined.
 * The answer is stored whole, so one such string anywhere would fail the round's insert. Walked
 * with a list rather than recursion, so a deeply nested answer cannot exhaust the stack.
 */
export function unstorableText(answer: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value: answer, path: "answer" }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string" && !storable(value)) return path;
    if (typeof value !== "object" || value === null) continue;
    for (const [key, item] of Object.entries(value)) {
      if (!storable(key)) return `${path} (a key)`;
      pending.push({ value: item, path: `${path}.${key}` });
    }
  }
  return undefined;
}
