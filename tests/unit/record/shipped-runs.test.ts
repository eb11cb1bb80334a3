/**
 * The recorded runs shipped in `public/runs/` (made by `npm run
 * record-runs`): every file there is read by today's `parseRunFile` and
 * indexed by the replay's own loader, so a change to the run file's schema
 * that would break them fails here; each "Watch a recording" link names a
 * file that is there, recorded from that very scenario, and showing what the
 * scenario is about; the links hold under the app's base path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRunFile, type RunFile } from '../../../src/record/run-file.ts';
import { loadRunText } from '../../../src/replay/run-loader.ts';
import { scenarioById, type ScenarioId } from '../../../src/scenarios/index.ts';
import { RECORDED_RUNS, recordingHref, recordingRun } from '../../../src/ui/state/recorded-runs.ts';

const FOLDER = new URL('../../../public/runs/', import.meta.url);
/** The app downloads them on demand and the repository carries them: they stay small. */
const MAX_BYTES = 300_000;

const files = readdirSync(FOLDER).filter((name) => name.endsWith('.json'));
const text = (name: string): string => readFileSync(new URL(name, FOLDER), 'utf8');

function runOf(name: string): RunFile {
  const verdict = parseRunFile(text(name));
  if (!verdict.ok) throw new Error(`${name}: ${verdict.error}`);
  return verdict.run;
}

/** A field of a recorded message (the run file keeps messages as they were: unknown JSON). */
function field(message: unknown, key: string): unknown {
  return typeof message === 'object' && message !== null && key in message
    ? (message as Record<string, unknown>)[key]
    : undefined;
}

const sent = (run: RunFile, method: string): number =>
  run.events.filter(
    (e) =>
      e.kind === 'wire' &&
      e.entry.direction === 'out' &&
      field(e.entry.message, 'method') === method,
  ).length;
const faultLog = (run: RunFile, kind: string): number =>
  run.events.filter((e) => e.kind === 'fault-log' && e.event.kind === kind).length;
/** The statuses the answers on the wire reported, in order. */
const statusesAnswered = (run: RunFile): unknown[] =>
  run.events.flatMap((e) => {
    if (e.kind !== 'wire' || e.entry.direction !== 'in') return [];
    const status = field(field(e.entry.message, 'result'), 'status');
    return status === undefined ? [] : [status];
  });

/** What each shipped run must show: the point of the scenario it was recorded from. */
const SHOWS: Record<string, { rules: string; holds: (run: RunFile) => boolean }> = {
  'cancel-race': {
    rules: 'T17: a tasks/cancel sent, and the task still ends completed',
    holds: (run) => sent(run, 'tasks/cancel') > 0 && statusesAnswered(run).at(-1) === 'completed',
  },
  'lost-handle': {
    rules: 'M7: the CreateTaskResult lost, the call re-issued: two tools/call sent',
    holds: (run) => faultLog(run, 'packet.lost') > 0 && sent(run, 'tools/call') >= 2,
  },
  'cluster-takeover': {
    rules: 'T19: a node killed mid-job, the task polled on to completed',
    holds: (run) => faultLog(run, 'node.killed') > 0 && statusesAnswered(run).includes('completed'),
  },
};

describe('recorded runs in public/runs', () => {
  it('has a file for every scenario with a recording, and only those', () => {
    expect(files.sort()).toEqual(Object.values(RECORDED_RUNS).sort());
  });

  for (const name of files) {
    it(`${name} parses with the current parseRunFile and opens in the replay's loader`, async () => {
      expect(Buffer.byteLength(text(name))).toBeLessThan(MAX_BYTES);
      const loaded = await loadRunText(
        text(name),
        () => {},
        (t) => Promise.resolve(parseRunFile(t)),
      );
      expect(loaded.ok ? 'opened' : loaded.error).toBe('opened');
    });
  }

  for (const [id, file] of Object.entries(RECORDED_RUNS) as [ScenarioId, string][]) {
    const shows = SHOWS[id];
    it(`${shows?.rules ?? id}: ${file} was recorded from scenario ${id}, and shows its point`, () => {
      const run = runOf(file);
      expect(run.scenario).toEqual({ id, title: scenarioById(id)?.title });
      expect(shows, `what ${file} must show`).toBeDefined();
      expect(shows!.holds(run)).toBe(true);
    });
  }
});

describe('Watch a recording links', () => {
  it('open ?run=runs/<file> on the page at the base path', () => {
    expect(recordingRun('cancel-race')).toBe('runs/cancel-race.json');
    expect(recordingHref('cancel-race', '/')).toBe('/?run=runs/cancel-race.json');
    expect(recordingHref('lost-handle', '/playground/')).toBe(
      '/playground/?run=runs/lost-handle.json',
    );
    expect(recordingHref('cluster-takeover', './')).toBe('./?run=runs/cluster-takeover.json');
  });

  it('are not drawn for a scenario without a recording, nor for a name that is no scenario', () => {
    expect(recordingHref('happy-path', '/')).toBeUndefined();
    expect(recordingRun('toString')).toBeUndefined();
  });
});
