/**
 * The Node host on loopback under autocannon: tasks/get requests per second
 * and latency, against two references under the same load in the same run:
 * a bare node:http server answering the same response bytes (the floor),
 * and the official SDK's smallest server answering a synchronous
 * `tools/call` (`sdk-fixture.ts`: what the SDK alone costs per request).
 * Each server runs in a child process (as `npm run serve` does), autocannon
 * in this one; with 2 cores, that is one core each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { BenchPart } from './context.ts';
import { figure } from './figures.ts';
import { measure, tasksGet, type Call, type Measured } from './load-rounds.ts';
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

export const nodeHost: BenchPart = {
  name: PART,
  async run(ctx) {
    const rounds = ctx.small ? 1 : 3;
    const seconds = ctx.small ? 2 : 4;
    // All started at once (an idle server costs nothing), then loaded one at a time.
    const [host, bare, sdk] = await Promise.all([
      startChild(['src/server/node-main.ts', '--port', '0']),
      startChild(['scripts/bench/bare-http.ts']),
      startChild(['scripts/bench/sdk-fixture.ts']),
    ]);
    let measured: Measured[];
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
      const greet: Call = {
        method: 'tools/call',
        name: 'greet',
        params: { name: 'greet', arguments: { name: 'bench' } },
      };
      for (const url of [host.url, sdk.url]) {
        const greeted = await rpc(url, greet.method, greet.name, greet.params);
        if (!greeted.text.includes('Hello, bench!'))
          throw new Error(`${url} did not greet: ${greeted.text}`);
      }
      ctx.log(
        `[${PART}] ${rounds} round(s) of ${seconds} s each, ${CONNECTIONS} connections: our tasks/get, our tools/call greet, the SDK fixture's tools/call greet, bare node:http`,
      );
      measured = await measure(
        [
          { label: 'host tasks/get', url: host.url, pid: host.child.pid, call: tasksGet(taskId) },
          { label: 'host greet', url: host.url, pid: host.child.pid, call: greet },
          { label: 'SDK greet', url: sdk.url, pid: sdk.child.pid, call: greet },
          { label: 'bare', url: bare.url, pid: bare.child.pid, call: tasksGet(taskId) },
        ],
        { rounds, seconds, connections: CONNECTIONS, clientName: 'bench-autocannon' },
      );
    } finally {
      await Promise.all([stop(host.child), stop(bare.child), stop(sdk.child)]);
    }
    const [get, ourGreet, sdkGreet, floor] = measured as [Measured, Measured, Measured, Measured];
    const sdkRef = (what: string, value: number) => ({
      name: `SDK fixture tools/call ${what}`,
      value,
    });
    const bareRef = (what: string, value: number) => ({ name: `bare node:http ${what}`, value });
    return [
      figure(
        PART,
        `tasks/get throughput vs the SDK (${CONNECTIONS} connections)`,
        get.throughput,
        'req/s',
        sdkRef('req/s', sdkGreet.throughput),
        'goal: at least 2x the bare SDK fixture (createMcpHandler + toNodeHandler, one synchronous tool); rounds interleaved',
      ),
      figure(
        PART,
        'tasks/get server CPU per request vs the SDK',
        get.cpuPerRequestUs,
        'µs',
        sdkRef('CPU', sdkGreet.cpuPerRequestUs),
        "the server process's user + system time over the requests it answered: steadier than req/s on a shared machine",
      ),
      figure(PART, 'tasks/get latency p50 vs the SDK', get.p50, 'ms', sdkRef('p50', sdkGreet.p50)),
      figure(
        PART,
        'our tools/call (greet, through the SDK entry) vs the SDK',
        ourGreet.throughput,
        'req/s',
        sdkRef('req/s', sdkGreet.throughput),
        'the same call on both: what our SDK path costs beside the bare SDK',
      ),
      figure(
        PART,
        `tasks/get throughput (${CONNECTIONS} connections)`,
        get.throughput,
        'req/s',
        bareRef('req/s', floor.throughput),
      ),
      figure(PART, 'tasks/get latency p50', get.p50, 'ms', bareRef('p50', floor.p50)),
      figure(
        PART,
        'tasks/get latency p99',
        get.p99,
        'ms',
        bareRef('p99', floor.p99),
        'autocannon records whole milliseconds',
      ),
    ];
  },
};
