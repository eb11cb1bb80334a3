/**
 * Load for the HTTP bench parts: autocannon against several servers in
 * interleaved rounds (each target loaded in turn, round after round), so a
 * change in the shared machine's load falls on every target alike; and the
 * server process's own CPU time per request, read from /proc, which moves
 * much less with the load than req/s do.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { median } from './figures.ts';
import { benchMeta, mcpHeaders } from './mcp-http.ts';

/** Linux's USER_HZ, the unit of CPU times in /proc/<pid>/stat (100 on every common build). */
const CLOCK_TICKS_PER_SECOND = 100;

/** A request to load a server with: its method, routing name (T19) and params. */
export interface Call {
  method: string;
  name: string;
  params: Record<string, unknown>;
}

export const tasksGet = (taskId: string): Call => ({
  method: 'tasks/get',
  name: taskId,
  params: { taskId },
});

/** How to load: rounds of so many seconds each, so many connections, as which client. */
export interface LoadOptions {
  rounds: number;
  seconds: number;
  connections: number;
  clientName: string;
}

/** One autocannon run; throws on any error or non-2xx answer, which would make the figures meaningless. */
export async function load(
  url: string,
  calls: Call | readonly Call[],
  seconds: number,
  options: Pick<LoadOptions, 'connections' | 'clientName'>,
): Promise<autocannon.Result> {
  // Several calls: each connection sends them in turn, round and round.
  const requests = (Array.isArray(calls) ? calls : [calls]).map((call: Call) => ({
    method: 'POST' as const,
    headers: mcpHeaders(call.method, call.name),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: call.method,
      params: { ...call.params, _meta: benchMeta(options.clientName) },
    }),
  }));
  const result = await autocannon({
    url,
    ...requests[0]!,
    requests,
    connections: options.connections,
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
export interface Target {
  label: string;
  url: string;
  pid: number | undefined;
  /** One call, or several that each connection sends in turn. */
  call: Call | readonly Call[];
}

/** A target's figures, over every round. */
export interface Measured {
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
export async function measure(
  targets: readonly Target[],
  options: LoadOptions,
): Promise<Measured[]> {
  const runs = targets.map(() => [] as { result: autocannon.Result; cpu: number }[]);
  for (const target of targets) await load(target.url, target.call, 1, options); // warm-up
  for (let round = 0; round < options.rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const before = cpuMs(target.pid);
      const result = await load(target.url, target.call, options.seconds, options);
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
