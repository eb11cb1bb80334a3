/**
 * The Node host on loopback under autocannon: tasks/get requests per second
 * and latency, against a bare node:http server answering the same response
 * bytes under the same load. Each server runs in a child process (as
 * `npm run serve` does), autocannon in this one; with 2 cores, that is one
 * core each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import type { BenchPart } from './context.ts';
import { figure } from './figures.ts';
import { benchMeta, mcpHeaders } from './mcp-http.ts';

const PART = 'node-host';
const CONNECTIONS = 10;
const meta = benchMeta('bench-autocannon');

/** Starts `args` under Node with tsx and resolves with the URL it prints once listening. */
async function startChild(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited (${code}) before listening`)),
    );
  });
  return { url, child };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

async function rpc(
  url: string,
  method: string,
  name: string,
  params: Record<string, unknown>,
): Promise<{ text: string; json: Record<string, unknown> }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { ...params, _meta: meta },
  });
  const response = await fetch(url, { method: 'POST', headers: mcpHeaders(method, name), body });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method}: HTTP ${response.status} ${text}`);
  return { text, json: JSON.parse(text) as Record<string, unknown> };
}

/** One autocannon run; throws on any error or non-2xx answer, which would make the figures meaningless. */
async function load(url: string, taskId: string, seconds: number): Promise<autocannon.Result> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tasks/get',
    params: { taskId, _meta: meta },
  });
  const result = await autocannon({
    url,
    method: 'POST',
    headers: mcpHeaders('tasks/get', taskId),
    body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx of ${result.requests.total}`,
    );
  }
  return result;
}

export const nodeHost: BenchPart = {
  name: PART,
  async run(ctx) {
    const seconds = ctx.small ? 2 : 10;
    // Both started at once (an idle server costs nothing), then loaded one at a time.
    const [host, bare] = await Promise.all([
      startChild(['src/server/node-main.ts', '--port', '0']),
      startChild(['scripts/bench/bare-http.ts']),
    ]);
    let hostResult: autocannon.Result;
    let bareResult: autocannon.Result;
    try {
      const created = await rpc(host.url, 'tools/call', 'slow_compute', {
        name: 'slow_compute',
        arguments: { seconds: 600 },
      });
      const taskId = (created.json['result'] as { taskId?: unknown } | undefined)?.taskId;
      if (typeof taskId !== 'string')
        throw new Error(`tools/call slow_compute did not make a task: ${created.text}`);
      const answer = (await rpc(host.url, 'tasks/get', taskId, { taskId })).text;
      // The reference answers with exactly these bytes.
      await fetch(bare.url, { method: 'PUT', body: answer });
      ctx.log(
        `[${PART}] warm-up, then ${seconds} s of tasks/get, ${CONNECTIONS} connections: our host`,
      );
      await load(host.url, taskId, 1);
      hostResult = await load(host.url, taskId, seconds);
      ctx.log(`[${PART}] the same against a bare node:http server`);
      await load(bare.url, taskId, 1);
      bareResult = await load(bare.url, taskId, seconds);
    } finally {
      await Promise.all([stop(host.child), stop(bare.child)]);
    }
    const ref = (name: string, value: number) => ({ name: `bare node:http ${name}`, value });
    return [
      figure(
        PART,
        `tasks/get throughput (${CONNECTIONS} connections)`,
        hostResult.requests.average,
        'req/s',
        ref('req/s', bareResult.requests.average),
      ),
      figure(
        PART,
        'tasks/get latency p50',
        hostResult.latency.p50,
        'ms',
        ref('p50', bareResult.latency.p50),
      ),
      figure(
        PART,
        'tasks/get latency p99',
        hostResult.latency.p99,
        'ms',
        ref('p99', bareResult.latency.p99),
        'autocannon records whole milliseconds',
      ),
    ];
  },
};
