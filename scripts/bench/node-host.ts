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
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { BenchPart } from './context.ts';
import { figure, median } from './figures.ts';
import { benchMeta, mcpHeaders } from './mcp-http.ts';

const PART = 'node-host';
const CONNECTIONS = 10;
/** Linux's USER_HZ, the unit of CPU times in /proc/<pid>/stat (100 on every common build). */
const CLOCK_TICKS_PER_SECOND = 100;
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

/** A request to load a server with: its method, routing name (T19) and params. */
interface Call {
  method: string;
  name: string;
  params: Record<string, unknown>;
}

const tasksGet = (taskId: string): Call => ({
  method: 'tasks/get',
  name: taskId,
  params: { taskId },
});

/** One autocannon run; throws on any error or non-2xx answer, which would make the figures meaningless. */
async function load(url: string, call: Call, seconds: number): Promise<autocannon.Result> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: call.method,
    params: { ...call.params, _meta: meta },
  });
  const result = await autocannon({
    url,
    method: 'POST',
    headers: mcpHeaders(call.method, call.name),
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

/** One server under load: what it is called in the table, where it is, what it is sent. */
interface Target {
  label: string;
  url: string;
  pid: number | undefined;
  call: Call;
}

/** A target's figures, over every round. */
interface Measured {
  /** Requests answered per second of load, all rounds together. */
  throughput: number;
  /** The median of the rounds' p50 and p99. */
  p50: number;
  p99: number;
  /** The server process's CPU time (user + system) per answered request, in µs; NaN off Linux. */
  cpuPerRequestUs: number;
}

/** The process's CPU time so far (user + system), in ms, from /proc; NaN where there is none. */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces, so split after its closing parenthesis).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/**
 * Loads every target in turn, `rounds` times over, so a change in the
 * machine's load (it is shared) falls on all of them alike rather than on
 * whichever ran last.
 */
async function measure(
  targets: readonly Target[],
  rounds: number,
  seconds: number,
): Promise<Measured[]> {
  const runs = targets.map(() => [] as { result: autocannon.Result; cpu: number }[]);
  for (const target of targets) await load(target.url, target.call, 1); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const before = cpuMs(target.pid);
      const result = await load(target.url, target.call, seconds);
      runs[i]!.push({ result, cpu: cpuMs(target.pid) - before });
    }
  }
  return runs.map((rounds) => {
    const answered = rounds.reduce((sum, r) => sum + r.result.requests.total, 0);
    const loadedSeconds = rounds.reduce((sum, r) => sum + r.result.duration, 0);
    const cpu = rounds.reduce((sum, r) => sum + r.cpu, 0);
    return {
      throughput: answered / loadedSeconds,
      p50: median(rounds.map((r) => r.result.latency.p50)),
      p99: median(rounds.map((r) => r.result.latency.p99)),
      cpuPerRequestUs: (cpu * 1000) / answered,
    };
  });
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
        rounds,
        seconds,
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
