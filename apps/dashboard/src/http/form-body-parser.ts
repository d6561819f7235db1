import type { DashboardFastify } from "./dashboard-context.js";

// C0 controls (NUL to US), DEL and the C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** A form with a control character in a field: a 400 that says so. */
export class FormRefused extends Error {
  readonly statusCode = 400;
  constructor(field: string) {
    const name = CONTROL_CHARACTER.test(field) ? "a field" : `the field “${field}”`;
    super(
      `A control character (such as NUL or a line break) is in ${name}; no field of the dashboard's forms takes one. Go back, remove it and try again.`,
    );
  }
}

/** Reads urlencoded forms into their fields (the first value of each name). */
export function addFormBodyParser(app: DashboardFastify): void {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(body as string)) {
        // No form of the dashboard takes a control character (NUL, a line break, ESC, DEL, C1): refused
        // here, before any field reaches a page, a hash or the database.
        if (CONTROL_CHARACTER.test(name) || CONTROL_CHARACTER.test(value))
          return done(new FormRefused(name), undefined);
        if (!(name in fields)) fields[name] = value;
      }
      done(null, fields);
    },
  );
}
