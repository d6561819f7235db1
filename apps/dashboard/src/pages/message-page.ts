import { html, type SafeHtml } from "../html.js";

/** A heading, a sentence and a way on: the body of the refusal and notice pages. */
export function messageBody(title: string, text: string, next?: { href: string; label: string }): SafeHtml {
  return html`<h1>${title}</h1>
<p>${text}</p>
${next ? html`<p><a class="button" href="${next.href}">${next.label}</a></p>` : ""}`;
}
