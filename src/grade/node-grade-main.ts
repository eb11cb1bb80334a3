/**
 * `npm run grade-client`: serves the grader's scripted tasks for a client
 * under test, prints where, and on Ctrl-C (SIGINT) or SIGTERM prints the
 * report card and exits: 0 when every client seen got full marks, 1 when
 * one did not, 3 when none came. The npm script `exec`s Node (with tsx as
 * its loader), so neither `sh` nor tsx's signal relay stands between the
 * terminal and this process: either would end with 130 for a Ctrl-C and
 * hide these codes.
 */
import { parseArgs } from 'node:util';
import { errorMessage } from '../protocol/error-message.ts';
import { CHECKS } from './checks.ts';
import { GRADER_TOOLS } from './grade-tools.ts';
import { startGrader } from './node-grader.ts';
import { reportText } from './report-render.ts';

const USAGE = `Usage: npm run grade-client -- [--port N] [--host H]

Serves a scripted MCP 2026-07-28 tasks server for your client to use, at
http://H:N/mcp, records what each client sends (told apart by bearer token,
else by clientInfo) and grades it. The report card is live at /report
(HTML; JSON with Accept: application/json, or /report.json), and printed
here when you stop the grader with Ctrl-C.

  --port N    port to listen on, 0 for any free port (default 3950)
  --host H    address to bind (default 127.0.0.1)
  -h, --help  show this help
`;

/** Signals closer together than this are one Ctrl-C (npm forwards the terminal's to its child). */
const SAME_STOP_MS = 1000;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { port?: string; host?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(errorMessage(error));
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const portText = values.port ?? '3950';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    fail(`Invalid port "${portText}": expected an integer from 0 to 65535`);
  const host = values.host ?? '127.0.0.1';
  let grader;
  try {
    grader = await startGrader({ host, port: Number(portText) });
  } catch (error) {
    process.stderr.write(`Cannot listen on ${host}:${portText}: ${errorMessage(error)}\n`);
    process.exit(1);
  }
  let stoppedAt: number | undefined;
  const stop = (signal: NodeJS.Signals): void => {
    // One Ctrl-C through npm arrives twice (the terminal's, and npm's forwarded copy): only a
    // second stop well after the first means "stop now".
    if (stoppedAt !== undefined) {
      if (performance.now() - stoppedAt > SAME_STOP_MS) process.exit(1);
      return;
    }
    stoppedAt = performance.now();
    const card = grader.report();
    process.stdout.write(`\n${signal}: the report card\n\n${reportText(card)}`);
    const code = card.clients.length === 0 ? 3 : card.clients.every((c) => c.fullMarks) ? 0 : 1;
    grader.close().then(
      () => process.exit(code),
      () => process.exit(code),
    );
  };
  // Listen before saying so: a Ctrl-C right after the line below must print the card, not kill.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  console.log(`Grader listening on ${grader.url}`);
  console.log(`Report card: ${grader.reportUrl} (JSON: ${grader.reportUrl}.json)`);
  console.log(`Point your client at it and run each tool:`);
  for (const tool of GRADER_TOOLS) console.log(`  ${tool.name}: ${tool.description}`);
  console.log(`${CHECKS.length} checks; Ctrl-C prints the report card and exits.`);
}

await main();
