import type { OrganizationUsage, ProjectPoolUse, UsageHour } from "@hub/admin";
import { type ErrorCode, errorCatalogue } from "@hub/contract";
import { html, type SafeHtml } from "../html.js";

const CHART_WIDTH = 720;
const CHART_HEIGHT = 180;
const AXIS_HEIGHT = 20;

const hourLabel = (iso: string) => `${iso.slice(11, 16)}`;
const refusalsOf = (hour: Pick<UsageHour, "refusals">) =>
  Object.values(hour.refusals).reduce((sum, count) => sum + count, 0);

/** Requests per hour stacked by credential kind, refusals as a narrower bar in front: inline SVG, no script. */
function usageChart(usage: OrganizationUsage): SafeHtml {
  const most = Math.max(1, ...usage.hours.map((h) => h.requests.apiKey + h.requests.projectId));
  const slot = CHART_WIDTH / usage.hours.length;
  const scale = (count: number) => (count / most) * CHART_HEIGHT;
  const bars = usage.hours.map((hour, i) => {
    const x = i * slot;
    const keyHeight = scale(hour.requests.apiKey);
    const projectHeight = scale(hour.requests.projectId);
    const refusedHeight = scale(refusalsOf(hour));
    const title = `${hourLabel(hour.hour)} UTC: ${hour.requests.apiKey} with an API key, ${hour.requests.projectId} with the project id, ${refusalsOf(hour)} refused, ${hour.lockouts} lockouts`;
    return html`<g><title>${title}</title>
<rect class="bar-key" x="${(x + 2).toFixed(1)}" y="${(CHART_HEIGHT - keyHeight).toFixed(1)}" width="${(slot - 4).toFixed(1)}" height="${keyHeight.toFixed(1)}"></rect>
<rect class="bar-project" x="${(x + 2).toFixed(1)}" y="${(CHART_HEIGHT - keyHeight - projectHeight).toFixed(1)}" width="${(slot - 4).toFixed(1)}" height="${projectHeight.toFixed(1)}"></rect>
<rect class="bar-refused" x="${(x + slot / 3).toFixed(1)}" y="${(CHART_HEIGHT - refusedHeight).toFixed(1)}" width="${(slot / 3).toFixed(1)}" height="${refusedHeight.toFixed(1)}"></rect>
${i % 3 === 0 ? html`<text class="axis" x="${(x + slot / 2).toFixed(1)}" y="${CHART_HEIGHT + 15}" text-anchor="middle">${hourLabel(hour.hour)}</text>` : ""}
</g>`;
  });
  return html`<figure class="chart">
<svg viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT + AXIS_HEIGHT}" role="img" aria-labelledby="usage-chart-title">
<title id="usage-chart-title">Requests per hour over the last ${usage.hours.length} hours, by credential kind, with the refused ones; the table below has the same figures.</title>
<line class="baseline" x1="0" y1="${CHART_HEIGHT}" x2="${CHART_WIDTH}" y2="${CHART_HEIGHT}"></line>
${bars}
</svg>
<figcaption><span class="legend key"></span>API key <span class="legend project"></span>Project id <span class="legend refused"></span>Refused <span class="muted">· the tallest bar is ${most} requests · hours in UTC</span></figcaption>
</figure>`;
}

const poolUsed = (pool: ProjectPoolUse) =>
  pool.admitted.reads +
  pool.admitted.quotes +
  pool.admitted.orders +
  pool.poolRefusals +
  pool.visitorRefusals;

/**
 * The project id's pool: what its visitors' calls did there per hour (hours with none left out), so an
 * owner sees a spent pool (EPX0080, every visitor refused) apart from one address's bucket (EPX0082).
 */
function projectPoolSection(usage: OrganizationUsage): SafeHtml {
  const pool = usage.totals.projectPool;
  const hours = [...usage.hours].reverse().filter((hour) => poolUsed(hour.projectPool) > 0);
  const row = (hour: UsageHour) => html`<tr>
<th scope="row">${hour.hour.slice(0, 10)} ${hourLabel(hour.hour)}</th>
<td class="num">${hour.projectPool.admitted.reads}</td>
<td class="num">${hour.projectPool.admitted.quotes}</td>
<td class="num">${hour.projectPool.admitted.orders}</td>
<td class="num">${hour.projectPool.poolRefusals}</td>
<td class="num">${hour.projectPool.visitorRefusals}</td>
</tr>`;
  return html`<section aria-labelledby="pool-title" class="panel">
<h2 id="pool-title">Project id pool</h2>
<p class="muted">Calls with your project id (from web pages) share one pool per project, and each visitor address has a bucket of its own, taken first. A quote or an order costs as much as many status reads. <code>EPX0080</code>: the project's pool was spent, so every visitor was refused; <code>EPX0082</code>: one address spent its own bucket, and the pool was not charged.</p>
<div class="grid stats">
<p><span class="stat">${pool.admitted.reads}</span> reads admitted</p>
<p><span class="stat">${pool.admitted.quotes}</span> quotes admitted</p>
<p><span class="stat">${pool.admitted.orders}</span> orders admitted</p>
<p><span class="stat">${pool.poolRefusals}</span> pool spent (<code>EPX0080</code>)</p>
<p><span class="stat">${pool.visitorRefusals}</span> visitor bucket spent (<code>EPX0082</code>)</p>
</div>
${
  hours.length === 0
    ? html`<p class="empty">No calls with the project id in the last ${usage.hours.length} hours.</p>`
    : html`<div class="table-wrap"><table>
<caption class="visually-hidden">Project id pool use per hour, newest first; hours without project id calls left out</caption>
<thead><tr><th scope="col">Hour (UTC)</th><th scope="col" class="num">Reads admitted</th><th scope="col" class="num">Quotes admitted</th><th scope="col" class="num">Orders admitted</th><th scope="col" class="num">Pool spent (EPX0080)</th><th scope="col" class="num">Visitor bucket spent (EPX0082)</th></tr></thead>
<tbody>${hours.map(row)}</tbody>
</table></div>`
}
</section>`;
}

function codeSummary(code: string): string {
  return code in errorCatalogue ? errorCatalogue[code as ErrorCode].summary : "";
}

/** The Usage page: the chart, then the same figures as a table, then refusals by code. */
export function usageBody(usage: OrganizationUsage): SafeHtml {
  const { totals } = usage;
  const requests = totals.requests.apiKey + totals.requests.projectId;
  const codes = Object.entries(totals.refusals).sort(([a], [b]) => a.localeCompare(b));
  const refusalCell = (hour: Pick<UsageHour, "refusals">) => {
    const entries = Object.entries(hour.refusals).sort(([a], [b]) => a.localeCompare(b));
    return entries.length === 0
      ? html`<span class="muted">—</span>`
      : entries.map(([code, count]) => html`<span class="code-count"><code>${code}</code> ${count}</span> `);
  };
  const rows = [...usage.hours].reverse().map(
    (hour) => html`<tr>
<th scope="row">${hour.hour.slice(0, 10)} ${hourLabel(hour.hour)}</th>
<td class="num">${hour.requests.apiKey}</td>
<td class="num">${hour.requests.projectId}</td>
<td>${refusalCell(hour)}</td>
<td class="num">${hour.lockouts}</td>
</tr>`,
  );
  return html`<h1>Usage</h1>
<p class="muted">The last ${usage.hours.length} hours of calls to the API with your organization's keys or project id, as the gateway counted them. Figures reach this page within a minute.</p>
<div class="panel grid stats">
<p><span class="stat">${requests}</span> requests</p>
<p><span class="stat">${totals.requests.apiKey}</span> with an API key</p>
<p><span class="stat">${totals.requests.projectId}</span> with the project id</p>
<p><span class="stat">${refusalsOf(totals)}</span> refused</p>
<p><span class="stat">${totals.lockouts}</span> lockouts</p>
</div>
${
  requests === 0
    ? html`<p class="panel empty">No calls in the last ${usage.hours.length} hours. Calls made with your API keys or project id appear here within a minute.</p>`
    : usageChart(usage)
}
<section aria-labelledby="refusals-title" class="panel">
<h2 id="refusals-title">Refusals by code</h2>
${
  codes.length === 0
    ? html`<p class="empty">No refused calls.</p>`
    : html`<div class="table-wrap"><table>
<thead><tr><th scope="col">Code</th><th scope="col">Meaning</th><th scope="col" class="num">Calls</th></tr></thead>
<tbody>${codes.map(([code, count]) => html`<tr><td><code>${code}</code></td><td>${codeSummary(code)}${code === "EPX0081" ? " (a lockout)" : ""}</td><td class="num">${count}</td></tr>`)}</tbody>
</table></div>`
}
</section>
${projectPoolSection(usage)}
<section aria-labelledby="hours-title">
<h2 id="hours-title">Per hour</h2>
<div class="table-wrap">
<table>
<caption class="visually-hidden">Requests per hour, newest first</caption>
<thead><tr><th scope="col">Hour (UTC)</th><th scope="col" class="num">API key</th><th scope="col" class="num">Project id</th><th scope="col">Refusals by code</th><th scope="col" class="num">Lockouts</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th scope="row">Total</th><td class="num">${totals.requests.apiKey}</td><td class="num">${totals.requests.projectId}</td><td>${refusalCell(totals)}</td><td class="num">${totals.lockouts}</td></tr></tfoot>
</table>
</div>
</section>`;
}
