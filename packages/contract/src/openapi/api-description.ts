import { PREFLIGHT_ALLOWED_HEADERS } from "../cors.js";

/** The document's `info.description`: what every route shares, for a reader who reads nothing else. */
export const API_DESCRIPTION = `An orchestration hub in front of intent aggregators and solver engines: quote a swap or bridge, submit the order, follow it by polling. The service never submits a transaction on the user's behalf and never moves funds; the user's wallet sends every disclosed transaction itself.

**Credentials.** Send exactly one on every call: a secret key in \`x-api-key\` (servers only; never accepted from a browser) or the public project id in \`x-project-id\` (web pages; the page's origin must be on the project's list). Both at once: EPX0007. No sign-up, session or key routes exist; keys are managed in the dashboard. Stop on a refused key: no retry fixes it.

**Subject.** \`X-Service-Subject\` names the user (or visitor) a call is for: \`^[A-Za-z0-9._@+~-]{1,128}$\`, required where marked (EIN0001, reference \`x-service-subject\`). Use the same subject for a quote, its order and its status reads.

**Base URL.** Every path below is relative to {base_url}, the gateway's origin followed by \`/v1\` (the \`baseUrl\` of \`.data/dev.json\` under \`npm start\`). A method or path that names no route answers EPX0004 (404).

**Envelope.** Every route except this document answers JSON \`{success, data?, request_id?, message?, errors?}\`. The hub answers 200 on success and 400 on every failure of its own; the gateway answers its own refusals (EPX codes) with a real status. Branch on \`errors[0].error_code\`, never on the status. An answer without the envelope did not come from a route: treat it as service unavailable.

**Headers.** Every answer carries \`X-Request-Id\`, \`Cache-Control: no-store\` and \`X-Content-Type-Options: nosniff\`; once a credential is accepted, refusals included, \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`. A call with a project id gets \`Access-Control-Allow-Origin\` (the page's origin), \`Access-Control-Expose-Headers\` and \`Vary: Origin\` on every answer; a CORS pre-flight (OPTIONS with \`Access-Control-Request-Method\`) on a known path answers 204 allowing GET and POST with the request headers \`${PREFLIGHT_ALLOWED_HEADERS}\`, never \`x-api-key\`.

**Blocks.** terminal: change the request (no retry). availability: retry later. busy: back off — EIN0080, EPX0080, EPX0082 carry the back-off in \`error_params[0]\` (ms); EPX0081 carries seconds in \`Retry-After\` only.

**Bodies.** Every POST carries a JSON object; a GET carries none. Unknown fields are ignored. Validation order: gateway (credential, origin, route, body size, rate limits), body decode (wrong JSON type: EIN0001 \`body\`; malformed JSON: EMC0028 \`Body\`), fields in struct order (first failing field only, error_reference = its wire name), route-specific resolution, then the hub's rate-limit charge (failing validation costs nothing).

**Polling.** No webhooks, no websockets. openFor orders: GET /order/{orderId}/status every 2-3 s until finalized, failed or refunded, then the on-chain fill view until settled. Open-flow orders: GET /status/{orderId}. Show money facts from the on-chain views only.

**Formats.** Chain domains CAIP-2 (\`eip155:31337\`), case-sensitive. Assets CAIP-19. Amounts decimal strings of base units. Timestamps RFC 3339 UTC with milliseconds. On-chain ids lowercase hex with \`0x\` (other forms find nothing).`;
