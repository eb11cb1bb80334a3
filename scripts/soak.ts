/**
 * `npm run soak -- [--clients N] [--seconds S] [--tasks-per-client K] [--sample-seconds T]`:
 * the Node host as a child process (`node-main.ts --report-stats`, with
 * `--expose-gc` so memory is measured after a full collection) under
 * several polling clients (scripts/soak-load.ts), for a few minutes.
 * Prints the host's memory and kept tasks over time, then a verdict:
 * memory growth from the first quarter of the run to the last, tasks
 * created against kept at the end, and whether expired tasks were purged.
 * Exits 1 when a verdict fails.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { DEFAULT_PURGE_AFTER_MS } from '../src/server/task-service.ts';
import { flashSaleQuote } from '../src/server/tools/flash-sale.ts';
import { emptySoakResult, runSoakLoad } from './soak-load.ts';

/** One `stats` line of the host, plus what the clients had done by then. */
interface Sample {
  at: number;
  rssBytes: number;
  heapUsedBytes: number;
  afterGc: boolean;
  tasks: number;
  unfinished: number;
  runningJobs: number;
  created: number;
}

/**
 * Flat memory: the last quarter's mean heap (after GC) at most this much
 * above the first quarter's. The first quarter is a ramp (no task is purged
 * before TTL + 60 s), so some growth is the tasks themselves; a leak of even
 * a few KB per task would pass this within minutes at this rate.
 */
const FLAT_HEAP_MB = 10;
const FLAT_HEAP_RATIO = 0.25;

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '180' },
    'tasks-per-client': { type: 'string', default: '4' },
    'sample-seconds': { type: 'string' },
  },
  strict: true,
});
const clients = positive(values.clients, '--clients');
const seconds = positive(values.seconds, '--seconds');
const tasksPerClient = positive(values['tasks-per-client'], '--tasks-per-client');
const sampleSeconds =
  values['sample-seconds'] === undefined
    ? Math.max(1, Math.round(seconds / 18))
    : positive(values['sample-seconds'], '--sample-seconds');

function positive(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`${name} must be a positive integer, got "${text}"`);
    process.exit(2);
  }
  return n;
}

const MB = 1024 * 1024;
const mb = (bytes: number): string => (bytes / MB).toFixed(1);
const mean = (xs: readonly number[]): number =>
  xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function main(): Promise<void> {
  const root = resolve(import.meta.dirname, '..');
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      'src/server/node-main.ts',
      '--port',
      '0',
      '--report-stats',
      String(sampleSeconds * 1000),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const result = emptySoakResult();
  const samples: Sample[] = [];
  let onUrl: (url: string) => void = () => {};
  const url = new Promise<string>((done) => (onUrl = done));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const listening = /listening on (\S+)/.exec(line);
    if (listening?.[1]) return onUrl(listening[1]);
    if (line.startsWith('stats '))
      samples.push({
        ...(JSON.parse(line.slice('stats '.length)) as Omit<Sample, 'created'>),
        created: result.created,
      });
  });
  const started = await Promise.race([
    url,
    exited.then((code) =>
      Promise.reject(new Error(`the host exited (${String(code)}) before listening`)),
    ),
  ]);

  console.log(
    `soak: ${clients} clients x ${tasksPerClient} tasks of ${flashSaleQuote.name} (ttlMs ${String(flashSaleQuote.ttlMs)}), ${seconds} s, purge ${DEFAULT_PURGE_AFTER_MS / 1000} s after expiry, host pid ${child.pid ?? '?'} at ${started}`,
  );
  const t0 = Date.now();
  const stop = new AbortController();
  setTimeout(() => stop.abort(), seconds * 1000);
  await runSoakLoad(
    {
      url: started,
      clients,
      tasksPerClient,
      purgeAfterMs: DEFAULT_PURGE_AFTER_MS,
      signal: stop.signal,
    },
    result,
  );
  // One more sample after the last purge checks, then stop the host.
  const before = samples.length;
  while (samples.length === before) await new Promise((r) => setTimeout(r, 200));
  child.kill('SIGINT');
  await exited;

  const inRun = samples.filter((s) => s.at >= t0);
  console.log('');
  console.log('   t (s)   RSS MB   heap MB   tasks kept   unfinished   jobs   created');
  for (const s of inRun) {
    console.log(
      `${String(Math.round((s.at - t0) / 1000)).padStart(8)} ${mb(s.rssBytes).padStart(8)} ${mb(s.heapUsedBytes).padStart(9)} ${String(s.tasks).padStart(12)} ${String(s.unfinished).padStart(12)} ${String(s.runningJobs).padStart(6)} ${String(s.created).padStart(9)}`,
    );
  }

  const span = seconds * 1000;
  const quarter = (q: number): Sample[] =>
    inRun.filter((s) => s.at - t0 >= (q * span) / 4 && s.at - t0 < ((q + 1) * span) / 4);
  const first = quarter(0);
  const last = quarter(3);
  const growth = (pick: (s: Sample) => number): { mb: number; pct: number } => {
    const a = mean(first.map(pick));
    const b = mean(last.map(pick));
    return { mb: (b - a) / MB, pct: a > 0 ? ((b - a) / a) * 100 : NaN };
  };
  const heap = growth((s) => s.heapUsedBytes);
  const rss = growth((s) => s.rssBytes);
  const end = inRun[inRun.length - 1];
  const maxKept = Math.max(...inRun.map((s) => s.tasks));
  const measured = first.length > 0 && last.length > 0;
  const memoryFlat =
    measured &&
    heap.mb <=
      Math.max(FLAT_HEAP_MB, (mean(first.map((s) => s.heapUsedBytes)) / MB) * FLAT_HEAP_RATIO);
  const purged =
    result.purgeConfirmed > 0 &&
    result.notPurged.length === 0 &&
    result.goneEarly.length === 0 &&
    end !== undefined &&
    end.tasks < result.created;
  const clean = result.errors.length === 0;

  console.log('');
  console.log(
    `requests: ${result.created} tools/call, ${result.polls} tasks/get polls, ${result.purgeConfirmed + result.notPurged.length} purge checks`,
  );
  console.log(
    `terminal: ${JSON.stringify(result.terminal)}; failed by TTL expiry: ${result.expired}`,
  );
  console.log(
    `memory, first quarter -> last (mean of ${first.length} and ${last.length} samples${end?.afterGc ? ', heap after GC' : ''}):`,
  );
  console.log(
    `  heap ${heap.mb >= 0 ? '+' : ''}${heap.mb.toFixed(2)} MB (${heap.pct >= 0 ? '+' : ''}${heap.pct.toFixed(1)} %), RSS ${rss.mb >= 0 ? '+' : ''}${rss.mb.toFixed(2)} MB (${rss.pct >= 0 ? '+' : ''}${rss.pct.toFixed(1)} %)`,
  );
  console.log(
    `tasks: ${result.created} created, ${end?.tasks ?? '?'} kept at the end (at most ${maxKept} at once)`,
  );
  console.log(
    `purge: ${result.purgeConfirmed} tasks asked for after TTL + ${DEFAULT_PURGE_AFTER_MS / 1000} s were gone (-32602), ${result.notPurged.length} were still there, ${result.goneEarly.length} went inside their TTL; ${result.uncheckedAtEnd} not yet due at the end`,
  );
  const ttlMs = flashSaleQuote.ttlMs ?? 0;
  if (seconds * 1000 < ttlMs + DEFAULT_PURGE_AFTER_MS + 3000)
    console.log(
      `  (a run shorter than ${(ttlMs + DEFAULT_PURGE_AFTER_MS + 3000) / 1000} s ends before any task is due to be purged)`,
    );
  for (const error of result.errors.slice(0, 10)) console.log(`  error: ${error}`);
  console.log('');
  console.log(
    `verdict: memory ${!measured ? 'NOT MEASURED (too short a run)' : memoryFlat ? 'flat' : 'GROWING'}; expired tasks purged: ${purged ? 'yes' : 'NO'}; errors: ${result.errors.length}`,
  );
  process.exit(memoryFlat && purged && clean ? 0 : 1);
}

await main();
