/**
 * The run file: what the recorder writes, the replay reads back. Export then
 * import gives the same run (a property over random runs of every event
 * kind); the reader refuses what is not a run, naming what is wrong; the
 * committed JSON Schema is the one the zod schema generates; and each
 * recorded value parses back to the session's own type.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ConnectionStatus, ServerStatus } from '../../../src/session/session-events.ts';
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import type { PushStatus } from '../../../src/client/task-subscription.ts';
import type { ToolCallRequest } from '../../../src/client/tool-call.ts';
import type { FaultEvent } from '../../../src/net/fault-log.ts';
import type { FaultRule } from '../../../src/net/fault-rules.ts';
import type { LinkConditions } from '../../../src/net/link-conditions.ts';
import type { PacketUpdate } from '../../../src/net/net-marks.ts';
import type { FaultNotice } from '../../../src/session/fault-notices.ts';
import type { StoredTaskReading } from '../../../src/session/server-xray.ts';
import type { ServerStoreStatus } from '../../../src/session/server-store.ts';
import type { HistoryStep } from '../../../src/ui/state/task-history.ts';
import type { RunEventOf } from '../../../src/record/run-events.ts';
import {
  parseRunFile,
  RUN_FORMAT,
  serializeRunFile,
  type RunFile,
} from '../../../src/record/run-file.ts';
import { RUN_FILE_SCHEMA_PATH, runFileJsonSchema } from '../../../src/record/run-file-schema.ts';
import { fcParameters } from '../helpers/fc-run.ts';
import { runArbitrary } from '../helpers/run-arbitraries.ts';

function aRun(): RunFile {
  return {
    format: RUN_FORMAT,
    version: 1,
    app: { version: '0.1.0' },
    recordedAt: '2026-07-28T10:00:00.000Z',
    setup: {
      seed: 42,
      link: {
        out: { latencyMs: 0, jitterMs: 0, lossRate: 0, duplicateRate: 0, reorderRate: 0 },
        in: { latencyMs: 80, jitterMs: 10, lossRate: 0.1, duplicateRate: 0, reorderRate: 0 },
      },
      rules: [],
      store: 'memory',
      cluster: { nodes: 1, policy: 'round-robin', store: 'memory' },
      declareTasks: true,
      server: { kind: 'built-in' },
    },
    events: [
      {
        at: 0,
        kind: 'wire',
        entry: {
          seq: 1,
          at: 1785232800000,
          direction: 'out',
          message: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        },
      },
      { at: 5, kind: 'declare-tasks', on: false },
    ],
  };
}

const verdictOf = (edit: (run: Record<string, unknown>) => void): string => {
  const run = JSON.parse(serializeRunFile(aRun())) as Record<string, unknown>;
  edit(run);
  const verdict = parseRunFile(JSON.stringify(run));
  return verdict.ok ? 'accepted' : verdict.error;
};

describe('the run file', () => {
  it('export then import gives the same run (property over random runs of every event kind)', () => {
    fc.assert(
      fc.property(runArbitrary, (run) => {
        const verdict = parseRunFile(serializeRunFile(run));
        expect(verdict).toEqual({ ok: true, run });
      }),
      fcParameters(200),
    );
  });

  it('a hand-made run parses, and serializes to one line per event', () => {
    const text = serializeRunFile(aRun());
    expect(text.split('\n')).toHaveLength(aRun().events.length + 3);
    expect(parseRunFile(text)).toEqual({ ok: true, run: aRun() });
  });

  it('refuses text that is not JSON, or is truncated', () => {
    expect(parseRunFile('')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not JSON.*empty/),
    });
    expect(parseRunFile('<html>')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not JSON/),
    });
    const text = serializeRunFile(aRun());
    expect(parseRunFile(text.slice(0, text.length - 20))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^not JSON/),
    });
    // Cut short anywhere (mid-string, mid-event, between events), the message says so.
    for (const length of [
      10,
      Math.floor(text.length / 3),
      Math.floor(text.length / 2),
      text.length - 3,
    ]) {
      const verdict = parseRunFile(text.slice(0, length));
      expect(verdict.ok ? 'parsed' : verdict.error).toMatch(
        new RegExp(
          `^not JSON \\(.*\\): it stops part-way, after ${length.toLocaleString('en')} characters \\(cut short\\?\\)$`,
        ),
      );
    }
    // Text that is wrong, not short, is not called cut short.
    expect(parseRunFile('{"format": 1}}')).toMatchObject({
      error: expect.not.stringMatching(/part-way/),
    });
    expect(parseRunFile('<html>')).toMatchObject({ error: expect.not.stringMatching(/part-way/) });
  });

  it('refuses JSON of another kind: not an object, another format', () => {
    expect(parseRunFile('[1,2]')).toEqual({
      ok: false,
      error: 'not a run file: the JSON is not an object',
    });
    expect(verdictOf((run) => (run['format'] = 'har'))).toBe(
      'not a run file: format is "har", expected "mcp-tasks-playground/run"',
    );
    expect(verdictOf((run) => delete run['format'])).toMatch(/format is missing/);
  });

  it('refuses a run from a newer version as made by a newer app', () => {
    expect(verdictOf((run) => (run['version'] = 2))).toBe(
      'made by a newer app: run file version 2, this page reads version 1',
    );
    expect(verdictOf((run) => (run['version'] = 0))).toMatch(/^version: /);
  });

  it('names the field and its path in a hand-edited run', () => {
    const events = (run: Record<string, unknown>) => run['events'] as Record<string, unknown>[];
    expect(
      verdictOf(
        (run) => ((events(run)[0]!['entry'] as Record<string, unknown>)['direction'] = 'up'),
      ),
    ).toMatch(/^events\[0\]\.entry\.direction: /);
    expect(verdictOf((run) => (events(run)[1]!['kind'] = 'teleport'))).toMatch(
      /^events\[1\]\.kind: /,
    );
    expect(verdictOf((run) => ((run['setup'] as { seed: unknown }).seed = -3))).toMatch(
      /^setup\.seed: /,
    );
    expect(
      verdictOf(
        (run) => ((run['setup'] as { link: { in: { lossRate: number } } }).link.in.lossRate = 7),
      ),
    ).toMatch(/^setup\.link\.in\.lossRate: /);
    expect(verdictOf((run) => (run['recordedAt'] = 'yesterday'))).toMatch(/^recordedAt: /);
    expect(verdictOf((run) => delete run['setup'])).toMatch(/^setup: /);
    expect(verdictOf((run) => delete events(run)[0]!['entry'])).toMatch(/^events\[0\]\.entry: /);
    expect(
      verdictOf((run) => delete (events(run)[0]!['entry'] as Record<string, unknown>)['message']),
    ).toMatch(/^events\[0\]\.entry\.message: /);
  });

  it('refuses events out of time order, naming the first one', () => {
    expect(verdictOf((run) => (events0(run)[1]!['at'] = -1))).toMatch(/^events\[1\]\.at: /);
    expect(
      verdictOf((run) => {
        events0(run).push({ at: 2, kind: 'reset' });
      }),
    ).toMatch(/^events\[2\]\.at: 2 comes before/);
  });

  it('never lets a bearer token into a run: a remote server is its URL alone', () => {
    const run = JSON.parse(serializeRunFile(aRun())) as Record<string, unknown>;
    const server = { kind: 'remote', url: 'https://example.test/mcp', token: 'secret' };
    (run['setup'] as Record<string, unknown>)['server'] = server;
    const verdict = parseRunFile(JSON.stringify(run));
    expect(verdict.ok && verdict.run.setup.server).toEqual({
      kind: 'remote',
      url: 'https://example.test/mcp',
    });
  });

  it('the committed JSON Schema is the one the zod schema generates', () => {
    const committed = JSON.parse(
      readFileSync(new URL(`../../../${RUN_FILE_SCHEMA_PATH}`, import.meta.url), 'utf8'),
    ) as unknown;
    expect(committed).toEqual(runFileJsonSchema());
  });

  it('each recorded value parses back to the session type the views take', () => {
    expectTypeOf<RunEventOf<'wire'>['entry']>().toExtend<WireEntry>();
    expectTypeOf<RunEventOf<'packet'>['update']>().toExtend<PacketUpdate>();
    expectTypeOf<RunEventOf<'fault'>['notice']>().toExtend<FaultNotice>();
    expectTypeOf<RunEventOf<'fault-log'>['event']>().toExtend<FaultEvent>();
    expectTypeOf<RunEventOf<'rules'>['rules'][number]>().toExtend<FaultRule>();
    // A field typed `T | undefined` is left out of JSON when undefined; a reader puts it back.
    expectTypeOf<
      RunEventOf<'connection'>['status'] & Pick<ConnectionStatus, 'detail'>
    >().toExtend<ConnectionStatus>();
    expectTypeOf<RunEventOf<'server'>['status']>().toExtend<ServerStatus>();
    expectTypeOf<
      RunEventOf<'server-store'>['status'] & Pick<ServerStoreStatus, 'running' | 'error'>
    >().toExtend<ServerStoreStatus>();
    expectTypeOf<RunEventOf<'push'>['status']>().toExtend<PushStatus>();
    expectTypeOf<RunEventOf<'tool-call'>['request']>().toExtend<ToolCallRequest>();
    expectTypeOf<
      RunEventOf<'task-step'>['step'] & Pick<HistoryStep, 'lastError' | 'link'>
    >().toExtend<HistoryStep>();
    expectTypeOf<RunEventOf<'xray'>['reading']>().toExtend<StoredTaskReading>();
    expectTypeOf<RunFile['setup']['link']>().toExtend<LinkConditions>();
    // And the other way: what the session gives the recorder fits the schema's types.
    expectTypeOf<WireEntry>().toExtend<RunEventOf<'wire'>['entry']>();
    expectTypeOf<PacketUpdate>().toExtend<RunEventOf<'packet'>['update']>();
    expectTypeOf<HistoryStep>().toExtend<RunEventOf<'task-step'>['step']>();
    expect(true).toBe(true);
  });
});

function events0(run: Record<string, unknown>): Record<string, unknown>[] {
  return run['events'] as Record<string, unknown>[];
}
