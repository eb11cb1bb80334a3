/**
 * The report card in words: plain text for the terminal (printed at exit)
 * and an HTML page that reloads itself (`/report`). Everything a client
 * sent is escaped: a tool name or a token is text, never markup.
 */
import { CHECKS, type CheckStatus } from './checks.ts';
import type { ClientReport, ReportCard } from './report-card.ts';

const MARK: Record<CheckStatus, string> = { pass: 'PASS', fail: 'FAIL', 'not-run': 'NOT RUN' };

function scoreLine(client: ClientReport, checkCount: number): string {
  return `${client.passed}/${checkCount}${client.fullMarks ? ' (full marks)' : ''}`;
}

/** The card as text, one block per client. */
export function reportText(card: ReportCard): string {
  if (card.clients.length === 0) return 'No client has sent a request yet.\n';
  const lines: string[] = [];
  for (const client of card.clients) {
    lines.push(
      `Client ${client.client}: ${scoreLine(client, card.checkCount)}, ${client.requests} requests`,
    );
    for (const check of client.checks) {
      lines.push(
        `  ${MARK[check.status].padEnd(7)} ${check.id} (${check.ruleIds.join(', ')}): ${check.summary}`,
      );
      for (const failure of check.failures) lines.push(`          ${failure}`);
    }
    const tried = client.tools.filter((t) => t.calls > 0).map((t) => t.tool);
    const untried = client.tools.filter((t) => t.calls === 0).map((t) => t.tool);
    lines.push(`  tools called: ${tried.join(', ') || 'none'}`);
    if (untried.length > 0) lines.push(`  not called yet: ${untried.join(', ')}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Inline code in a check's words (`like this`), escaped first. */
function words(text: string): string {
  return escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** Links are given their own colours: the browser's default blue is unreadable on the dark background (WCAG AA wants 4.5:1). */
const STYLE = `
:root{color-scheme:light dark}a{color:#0550ae}
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1.5rem;color:#1b1f24;background:#fff}
h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:1.75rem 0 .5rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.4rem .5rem;border-bottom:1px solid #d0d7de}
.pass{color:#116329;font-weight:600}.fail{color:#b3261e;font-weight:600}.not-run{color:#6e7781;font-weight:600}
.score{font-size:1.05rem}.full{color:#116329}code{font:13px ui-monospace,monospace;background:#f3f4f6;padding:0 .2rem;border-radius:3px}
ul{margin:.25rem 0 0;padding-left:1.2rem}.muted{color:#57606a}
@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}th,td{border-color:#30363d}.pass,.full{color:#3fb950}.fail{color:#f85149}.not-run,.muted{color:#8b949e}code{background:#161b22}a{color:#58a6ff}}
`;

/** The card as an HTML page; `refreshSeconds` makes it live. */
export function reportHtml(card: ReportCard, refreshSeconds = 2): string {
  const clients = card.clients.map((client) => {
    const rows = client.checks
      .map(
        (check) =>
          `<tr><td class="${check.status}">${MARK[check.status]}</td><td>${words(check.title)}<div class="muted">${escape(check.ruleIds.join(', '))}</div></td><td>${escape(check.summary)}${
            check.failures.length > 0
              ? `<ul>${check.failures.map((f) => `<li>${escape(f)}</li>`).join('')}</ul>`
              : ''
          }</td></tr>`,
      )
      .join('');
    const tools = client.tools
      .map(
        (t) =>
          `<li><code>${escape(t.tool)}</code>: ${t.calls === 0 ? '<span class="muted">not run yet</span>' : t.tasks.map((task) => `${escape(task.taskId.slice(0, 8))}… ${escape(task.last)}`).join('; ') || `${t.calls} calls, no task`}</li>`,
      )
      .join('');
    return `<section><h2>${escape(client.client)}</h2><p class="score${client.fullMarks ? ' full' : ''}">${escape(scoreLine(client, card.checkCount))} · ${client.requests} requests</p><table><thead><tr><th>Result</th><th>Check</th><th>What was seen</th></tr></thead><tbody>${rows}</tbody></table><p>Tools:</p><ul>${tools}</ul></section>`;
  });
  const meanings = CHECKS.map(
    (check) =>
      `<li><strong>${escape(check.id)}</strong> (${escape(check.ruleIds.join(', '))}): ${words(check.meaning)}</li>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${
    refreshSeconds > 0 ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : ''
  }<title>Client report card</title><style>${STYLE}</style></head><body><h1>Client report card</h1><p class="muted">MCP Tasks Playground grader · updated ${escape(new Date(card.at).toISOString())} · also as <a href="/report.json">JSON</a></p>${
    clients.join('') || '<p>No client has sent a request yet.</p>'
  }<h2>What each check means</h2><ul>${meanings}</ul></body></html>`;
}
