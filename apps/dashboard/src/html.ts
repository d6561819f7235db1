/** Markup that is already safe: made by the `html` template, never from user text directly. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};

/** Text made safe for an element's content and a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (character) => ESCAPES[character] ?? character);
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/**
 * The one way pages make markup: every interpolated value is escaped unless it is SafeHtml (another
 * `html` result); arrays are joined; null, undefined and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = "";
  for (const [i, text] of strings.entries()) out += (i === 0 ? "" : render(values[i - 1])) + text;
  return new SafeHtml(out);
}
