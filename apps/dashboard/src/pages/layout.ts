import type { Viewer } from "../auth/viewer.js";
import { html, type SafeHtml } from "../html.js";

export interface PageFrame {
  title: string;
  viewer: Viewer;
  /** The member's organization name, shown in the header. */
  orgName?: string | undefined;
  /** The nav path this page belongs to. */
  current: string;
}

const MEMBER_NAV = [
  { href: "/", label: "Overview" },
  { href: "/keys", label: "API keys" },
  { href: "/origins", label: "Allowed origins" },
  { href: "/usage", label: "Usage" },
  { href: "/members", label: "Members" },
];
const OPERATOR_NAV = [
  { href: "/organizations", label: "Organizations" },
  { href: "/reservations", label: "Reservations" },
  { href: "/operators", label: "Operators" },
  { href: "/audit-log", label: "Audit log" },
];

function head(title: string): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Intent Hub</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/dashboard.css">
<script src="/assets/dashboard.js" defer></script>
</head>`;
}

const confirmDialog = html`<dialog id="confirm-dialog" aria-labelledby="confirm-title" aria-describedby="confirm-text">
<form method="dialog">
<h2 id="confirm-title">Are you sure?</h2>
<p id="confirm-text"></p>
<div class="actions"><button value="cancel" class="secondary">Cancel</button><button value="confirm" class="danger" id="confirm-button">Confirm</button></div>
</form>
</dialog>`;

/** A signed-in page: header with the organization's name, the navigation for the viewer's role, sign out. */
export function signedInPage(frame: PageFrame, body: SafeHtml): SafeHtml {
  const nav = frame.viewer.role === "operator" ? OPERATOR_NAV : MEMBER_NAV;
  const context = frame.viewer.role === "operator" ? "Operator" : frame.orgName;
  return html`${head(frame.title)}
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<div class="bar">
<a class="brand" href="/"><span class="mark" aria-hidden="true"></span>Intent Hub</a>
${context ? html`<span class="context">${context}</span>` : ""}
<div class="who"><span class="email">${frame.viewer.email}</span>
<a href="/account"${frame.current === "/account" ? html` aria-current="page"` : ""}>Account</a>
<form method="post" action="/sign-out"><button type="submit" class="link">Sign out</button></form></div>
</div>
<nav aria-label="Main"><ul>
${nav.map(
  (item) =>
    html`<li><a href="${item.href}"${item.href === frame.current ? html` aria-current="page"` : ""}>${item.label}</a></li>`,
)}
</ul></nav>
</header>
<main id="main" tabindex="-1">
${body}
</main>
${confirmDialog}
</body>
</html>`;
}

/** A page before sign-in: one centred card. */
export function publicPage(title: string, body: SafeHtml): SafeHtml {
  return html`${head(title)}
<body class="public">
<main id="main" class="card narrow">
<p class="brand"><span class="mark" aria-hidden="true"></span>Intent Hub</p>
${body}
</main>
</body>
</html>`;
}
