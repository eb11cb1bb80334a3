/**
 * The x-ray over time: a past history step reads what the server's store
 * held at that moment, and an unknown moment is said to be unknown.
 */
import { describe, expect, it } from 'vitest';
import type { StoredTaskReading } from '../../../src/session/server-xray.ts';
import { XrayHistory, type XraySource } from '../../../src/ui/state/xray-history.ts';

/** A session whose x-ray reads `readings` and emits `xray` when told. */
function fakeSession() {
  const readings = new Map<string, StoredTaskReading>();
  const listeners: ((e: { taskId: string | undefined }) => void)[] = [];
  return {
    readings,
    emit: (taskId: string | undefined) => listeners.forEach((l) => l({ taskId })),
    session: {
      xray: {
        reading: (id: string): StoredTaskReading =>
          readings.get(id) ?? { kind: 'not-stored', deleted: false },
      },
      on: (_: 'xray', listener: (e: { taskId: string | undefined }) => void) => {
        listeners.push(listener);
        return () => undefined;
      },
    } satisfies XraySource,
  };
}

describe('XrayHistory', () => {
  it('T12: a past moment reads what the store held then, the present what it holds now', () => {
    const { readings, emit, session } = fakeSession();
    let now = 1000;
    const history = new XrayHistory(session, () => now);
    readings.set('t1', { kind: 'stored', status: 'working', since: 900 });
    history.track('t1');
    now = 2000;
    readings.set('t1', { kind: 'stored', status: 'completed', since: 2000 });
    emit('t1');
    now = 3000;
    readings.set('t1', { kind: 'not-stored', deleted: true });
    emit(undefined);

    expect(history.readingAt('t1', 999)).toBeUndefined();
    expect(history.readingAt('t1', 1000)).toEqual({
      kind: 'stored',
      status: 'working',
      since: 900,
    });
    expect(history.readingAt('t1', 1999)).toMatchObject({ status: 'working' });
    expect(history.readingAt('t1', 2500)).toMatchObject({ status: 'completed' });
    expect(history.readingAt('t1', 9999)).toEqual({ kind: 'not-stored', deleted: true });
  });

  it('knows nothing of a task it does not track, and keeps only the newest readings', () => {
    const { readings, emit, session } = fakeSession();
    let now = 0;
    const history = new XrayHistory(session, () => now, 3);
    emit('other');
    expect(history.readingAt('other', 10)).toBeUndefined();
    history.track('t1');
    for (const status of ['working', 'input_required', 'working', 'completed'] as const) {
      now += 10;
      readings.set('t1', { kind: 'stored', status, since: now });
      emit('t1');
    }
    // Four changes after the first reading, three kept: the oldest moments are unknown again.
    expect(history.readingAt('t1', 15)).toBeUndefined();
    expect(history.readingAt('t1', 45)).toMatchObject({ status: 'completed' });
    // A reading that did not change adds nothing.
    emit('t1');
    expect(history.readingAt('t1', 25)).toMatchObject({ status: 'input_required' });
    history.untrack('t1');
    expect(history.readingAt('t1', 45)).toBeUndefined();
  });
});
