/**
 * The statechart's history: one step per event the task actor processed,
 * each naming its event and the graph edges it took, stepped with a cursor.
 * Driven by a real actor of the task machine on a simulated clock.
 */
import { describe, expect, it } from 'vitest';
import type { StateValue } from 'xstate';
import type { TaskStatus } from '../../../src/protocol/task.ts';
import {
  firstStep,
  HISTORY_KEYS,
  listedWindow,
  moveCursor,
  shownPosition,
  shownStep,
  stepBack,
  stepForward,
  historyOf,
  type HistoryStep,
} from '../../../src/ui/state/task-history.ts';
import { watchTaskSteps } from '../../../src/ui/state/run-steps.ts';
import { historyStep, recordedRun as run, report } from '../helpers/recorded-task-run.ts';
import { statusChanges } from '../../../src/ui/state/history-seen.ts';

describe('HistoryRecorder', () => {
  it('records each step with the event that caused it, and the edges it took', async () => {
    const { actor, graph, recorder, advance, steps } = run([
      (at) => report('working', at),
      () => {
        throw new Error('link dropped');
      },
      (at) => report('completed', at),
    ]);
    expect(recorder.steps.map((s) => s.event)).toEqual(['start']);
    actor.send({ type: 'task.cancel' });
    await advance(5000);

    const events = steps().map((s) => s.event);
    expect(events).toEqual([
      'start',
      'task.cancel',
      'done sendCancel',
      'after pollInterval',
      'poll.answered',
      'after pollInterval',
      'poll.failed',
      'after backoff',
      'poll.answered',
    ]);
    const byEvent = (event: string) => steps().find((s) => s.event === event)!;
    expect(byEvent('start').active).toEqual(
      expect.arrayContaining([
        'task.active.lifecycle.waiting',
        'task.active.input.idle',
        'task.active.cancel.idle',
      ]),
    );
    expect(byEvent('poll.failed').active).toContain('task.active.lifecycle.backoff');
    expect(byEvent('done sendCancel').active).toContain('task.active.cancel.acknowledged');

    // Every transition the running actor took is an edge the chart draws.
    const edges = new Set(graph.edges.map((e) => e.id));
    for (const step of steps())
      for (const id of step.taken) expect(edges, `${step.event}: ${id}`).toContain(id);

    // The last poll's report takes two transitions in one step: poll.answered, then always -> completed.
    const last = steps().at(-1)!;
    expect(last.taken.map((id) => graph.edges.find((e) => e.id === id)?.event)).toEqual([
      'poll.answered',
      'always',
    ]);
    expect(last.active).toEqual(['task.completed']);
    expect(last).toMatchObject({ serverStatus: 'completed', cancelRequested: true, polls: 3 });
    expect(steps().map((s) => s.index)).toEqual(steps().map((_, i) => i));
    recorder.stop();
  });

  it('records pushed reports handled without a state change as internal transitions', async () => {
    const { actor, graph, advance, steps } = run([(at) => report('working', at)]);
    await advance(10);
    actor.send({
      type: 'task.notification',
      task: report('working', 5, { statusMessage: 'pushed' }),
    });
    const step = steps().at(-1)!;
    expect(step.event).toBe('task.notification');
    expect(step.taken).toEqual([]);
    const internal = graph.nodes.flatMap((n) => n.internal).map((t) => t.id);
    expect(step.internal.every((id) => internal.includes(id))).toBe(true);
    expect(step.internal).toHaveLength(1);
  });

  it('keeps only the newest steps, with stable indexes', async () => {
    const { advance, steps } = run([(at) => report('working', at)]);
    await advance(40_000); // ~80 steps, kept: 50
    expect(steps()).toHaveLength(50);
    expect(steps()[0]!.index).toBeGreaterThan(0);
    expect(steps().at(-1)!.index - steps()[0]!.index).toBe(49);
    await advance(40_000); // past twice the limit: trimmed, still the newest 50
    expect(steps()).toHaveLength(50);
    expect(steps().at(-1)).toBe(steps().at(-1));
    expect(steps().map((s) => s.index)).toEqual(steps().map((_, i) => steps()[0]!.index + i));
  });

  it('gives the same array until a step is recorded, and never changes one it gave', async () => {
    const { recorder, advance } = run([(at) => report('working', at)]);
    const before = recorder.steps;
    expect(recorder.steps).toBe(before);
    await advance(1000);
    const after = recorder.steps;
    expect(after).not.toBe(before);
    expect(before.map((s) => s.event)).toEqual(['start']);
    expect(after.length).toBeGreaterThan(1);
    expect(after[0]).toBe(before[0]);
    expect(recorder.latest).toBe(after.at(-1));
  });

  it('tells each new step to its listeners once, until they unsubscribe', async () => {
    const { recorder, advance } = run([(at) => report('working', at)]);
    const told: HistoryStep[] = [];
    const stop = recorder.onStep((step) => told.push(step));
    await advance(1000);
    expect(told.length).toBeGreaterThan(0);
    expect(told).toEqual(recorder.steps.slice(1));
    stop();
    const count = told.length;
    await advance(1000);
    expect(told).toHaveLength(count);
    expect(recorder.steps.length).toBeGreaterThan(count + 1);
  });

  it('works out the same state value once: equal values share one frozen active list', async () => {
    const { advance, steps } = run([(at) => report('working', at)]);
    await advance(2000);
    const [first] = steps();
    const waiting = steps().filter((s) => JSON.stringify(s.value) === JSON.stringify(first!.value));
    expect(waiting.length).toBeGreaterThan(1);
    expect(waiting[1]!.value).not.toBe(first!.value);
    // A poll's step copies nothing; the shared lists cannot be changed through any one step.
    expect(waiting[1]!.active).toBe(waiting[0]!.active);
    expect(waiting[2]!.entered).toBe(waiting[1]!.entered);
    expect(Object.isFrozen(waiting[1]!.active)).toBe(true);
    expect(Object.isFrozen(waiting[1]!.entered)).toBe(true);
    expect(waiting[1]!.entered).toEqual(['task.active.lifecycle.waiting']);
  });
});

describe('historyOf', () => {
  it('one recorder per actor, whose steps the run recorder is handed as they are', async () => {
    const { actor, advance } = run([(at) => report('working', at)]);
    const history = historyOf(actor);
    expect(historyOf(actor)).toBe(history);
    const handed: unknown[] = [];
    const stop = watchTaskSteps(actor, (step) => handed.push(step));
    expect(handed).toEqual([history.latest]);
    await advance(1000);
    expect(handed.length).toBeGreaterThan(1);
    for (const step of handed) expect(history.steps).toContain(step);
    stop();
  });
});

describe('history cursor', () => {
  const steps = [3, 4, 5, 6].map((index) => historyStep({ index }));

  it('is live (null) by default and shows the newest step', () => {
    expect(shownStep(steps, null)?.index).toBe(6);
    expect(shownPosition(steps, null)).toBe(4);
  });

  it('steps back to the oldest and stops there', () => {
    let cursor = stepBack(steps, null);
    expect(cursor).toBe(5);
    cursor = stepBack(steps, stepBack(steps, cursor));
    expect(cursor).toBe(3);
    expect(stepBack(steps, cursor)).toBe(3);
    expect(shownPosition(steps, cursor)).toBe(1);
  });

  it('steps forward, and the newest step is live again', () => {
    expect(stepForward(steps, 3)).toBe(4);
    expect(stepForward(steps, 5)).toBeNull();
    expect(stepForward(steps, null)).toBeNull();
    expect(firstStep(steps)).toBe(3);
  });

  it('clamps a cursor whose step was dropped to the oldest kept', () => {
    expect(shownStep(steps, 1)?.index).toBe(3);
    expect(stepForward(steps, 1)).toBe(4);
  });
});

describe('status changes only', () => {
  const step = (index: number, serverStatus: TaskStatus, value: StateValue): HistoryStep =>
    historyStep({ index, serverStatus, value });
  const running = { lifecycle: 'polling' };

  it('keeps the first step and each change of the status seen; a final state on the same status is none', () => {
    const steps = [
      step(0, 'working', running),
      step(1, 'working', running),
      step(2, 'input_required', running),
      step(3, 'input_required', running),
      step(4, 'working', running),
      step(5, 'working', running),
      step(6, 'working', 'forgotten'),
      step(7, 'working', 'forgotten'),
    ];
    expect(statusChanges(steps).map((s) => s.index)).toEqual([0, 2, 4]);
    expect(statusChanges([])).toEqual([]);
  });

  it('a 20 s working task followed to completed comes down to its status changes', async () => {
    const { advance, steps } = run([
      ...Array.from({ length: 20 }, () => (at: number) => report('working', at)),
      (at) => report('completed', at),
    ]);
    await advance(25_000);
    const all = steps();
    expect(all.length).toBeGreaterThan(20);
    const changes = statusChanges(all);
    expect(changes.map((s) => s.event)).toEqual(['start', 'poll.answered']);
    expect(changes.at(-1)).toMatchObject({ serverStatus: 'completed', active: ['task.completed'] });

    // Stepping through the filtered steps visits only those.
    const cursor = stepBack(changes, null);
    expect(shownStep(changes, cursor)?.event).toBe('start');
    expect(stepForward(changes, cursor)).toBeNull();
  });

  it('shows the nearest older kept step for a cursor on a step filtered out', () => {
    const steps = [step(0, 'working', running), step(5, 'completed', 'completed')];
    expect(shownStep(steps, 3)?.index).toBe(0);
    expect(shownPosition(steps, 3)).toBe(1);
  });
});

describe('keys and the listed window', () => {
  const step = (index: number): HistoryStep => historyStep({ index });
  const steps = [3, 4, 5, 6].map(step);

  it('Left and Down step older, Right and Up newer, Home to the oldest, End to live', () => {
    // Where each key takes the cursor from step 5 of 3..7: one older, one newer, the oldest, live.
    const five = [3, 4, 5, 6, 7].map(step);
    const from5 = (key: string) => moveCursor(five, 5, HISTORY_KEYS[key]!);
    expect(['ArrowLeft', 'ArrowDown', 'ArrowRight', 'ArrowUp', 'Home', 'End'].map(from5)).toEqual([
      4,
      4,
      6,
      6,
      3,
      null,
    ]);
    expect(moveCursor(steps, null, HISTORY_KEYS.ArrowDown!)).toBe(5);
    expect(moveCursor(steps, 5, HISTORY_KEYS.ArrowLeft!)).toBe(4);
    expect(moveCursor(steps, 4, HISTORY_KEYS.ArrowUp!)).toBe(5);
    expect(moveCursor(steps, 5, HISTORY_KEYS.ArrowRight!)).toBeNull();
    expect(moveCursor(steps, 5, HISTORY_KEYS.Home!)).toBe(3);
    expect(moveCursor(steps, 3, HISTORY_KEYS.End!)).toBeNull();
    expect(HISTORY_KEYS.Enter).toBeUndefined();
  });

  it('the list always holds the shown step, so focus can sit on it', () => {
    const many = Array.from({ length: 200 }, (_, i) => step(i));
    expect(listedWindow(many, null, 80).at(-1)?.index).toBe(199);
    for (const cursor of [0, 5, 60, 120, 170, 199]) {
      const window = listedWindow(many, cursor, 80);
      expect(window).toHaveLength(80);
      expect(window.map((s) => s.index)).toContain(cursor);
    }
    expect(listedWindow(steps, 3, 80)).toBe(steps);
  });
});
