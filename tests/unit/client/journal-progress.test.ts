/**
 * When the journal writes: what a reload needs within the tick it changes,
 * progress (poll count, schedule, progress text) at most once per
 * `progressWriteMs` (every task's in one record), everything at once when
 * the page closes; and what a reload then does with the schedule it finds.
 * Actors and the journal's timers run on one simulated clock.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { resumeInputOf } from '../../../src/client/task-facts.ts';
import type { TaskActor } from '../../../src/client/task-follower.ts';
import { TaskJournal } from '../../../src/client/task-journal.ts';
import type { DetailedTask } from '../../../src/protocol/task.ts';
import { MemoryPageStore } from '../../../src/store/memory-page-store.ts';
import type { StorageProblem, StoredTask } from '../../../src/store/page-store.ts';
import type { StoredProgress } from '../../../src/store/task-progress.ts';
import {
  asking,
  facts,
  fakeMachine,
  handle,
  noCalls,
  tick,
  withPutTasks,
} from '../helpers/journal-actors.ts';

const start = Date.parse(handle.createdAt);

/** One task polled every 20 ms on a simulated clock, journaled; `writes` holds every putTasks batch, `progressWrites` every putProgress. */
function followed(options: { progressWriteMs: number; report?: () => DetailedTask }) {
  const clock = new SimulatedClock();
  const now = () => start + clock.now();
  const inner = new MemoryPageStore();
  const writes: StoredTask[][] = [];
  const progressWrites: StoredProgress[][] = [];
  let hold: Promise<void> | undefined;
  let full = false;
  const store = withPutTasks(
    inner,
    async (tasks) => {
      writes.push(structuredClone([...tasks]));
      if (full) throw new DOMException('quota', 'QuotaExceededError');
      await hold;
      return inner.putTasks(tasks);
    },
    async (progress) => {
      progressWrites.push(structuredClone([...progress.values()]));
      if (full) throw new DOMException('quota', 'QuotaExceededError');
      return inner.putProgress(progress);
    },
  );
  const problems: (StorageProblem | undefined)[] = [];
  const journal = new TaskJournal(store, {
    timers: clock,
    progressWriteMs: options.progressWriteMs,
    onProblem: (p) => problems.push(p),
  });
  const report =
    options.report ??
    ((): DetailedTask => ({
      ...handle,
      resultType: undefined,
      statusMessage: `computing at ${clock.now()} ms`,
      lastUpdatedAt: new Date(now()).toISOString(),
    }));
  const calls = noCalls();
  const actor: TaskActor = createActor(fakeMachine(report, calls), {
    clock,
    input: { task: handle, toolName: facts.toolName, now },
  }).start();
  journal.track(actor, facts);
  /** Advances to the next poll and waits for its answer. */
  const poll = async () => {
    const polls = actor.getSnapshot().context.polls;
    clock.increment(20);
    await vi.waitFor(() => expect(actor.getSnapshot().context.polls).toBe(polls + 1));
    await vi.waitFor(() => expect(actor.getSnapshot().context.nextPollAt).toBeDefined());
  };
  return {
    clock,
    now,
    actor,
    journal,
    inner,
    writes,
    progressWrites,
    calls,
    problems,
    poll,
    setFull: (value: boolean) => (full = value),
    holdWrites: () => {
      let release = () => {};
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

describe('TaskJournal: progress waits, what a reload needs does not', () => {
  it('T12: progress alone is written at most once per progressWriteMs, not on every poll, and apart from the task', async () => {
    const f = followed({ progressWriteMs: 1000 });
    await tick();
    expect(f.writes).toHaveLength(1); // The task's first facts, within the tick (T12).
    // 50 polls in 1000 ms, each two steps of progress; the first, at 20 ms, set the progress timer.
    for (let i = 0; i < 50; i++) await f.poll();
    await tick();
    expect(f.progressWrites).toHaveLength(0);
    await f.poll(); // 1020 ms: the progress timer too.
    await vi.waitFor(() => expect(f.progressWrites).toHaveLength(1));
    expect(f.progressWrites[0]![0]!.polls).toBeGreaterThanOrEqual(49);
    expect(f.progressWrites[0]![0]!.task.statusMessage).toMatch(/^computing at/);
    expect(f.progressWrites[0]![0]!.revision).toBeGreaterThan(f.writes[0]![0]!.revision!);
    for (let i = 0; i < 49; i++) await f.poll();
    await tick();
    expect(f.progressWrites).toHaveLength(1);
    await f.journal.flush();
    expect(f.progressWrites).toHaveLength(2);
    // Progress never rewrote the task's own record: its facts were written once.
    expect(f.writes).toHaveLength(1);
    // What a reload reads: the record with the newer progress laid over it.
    const context = f.actor.getSnapshot().context;
    expect((await f.inner.tasks())[0]).toMatchObject({
      polls: context.polls,
      nextPollAt: context.nextPollAt,
      task: { statusMessage: `computing at ${f.clock.now()} ms` },
    });
    f.actor.stop();
  });

  it('T14, T15, T17: an answer, its unsent response and a cancel intent are kept within the tick, however long progress waits; a reload never asks again', async () => {
    const f = followed({ progressWriteMs: 60_000, report: asking });
    await f.poll();
    await vi.waitFor(() =>
      expect(f.actor.getSnapshot().context.pendingInputs).toHaveProperty('confirm'),
    );
    f.actor.send({ type: 'task.answer', responses: { confirm: { action: 'accept' } } });
    f.actor.send({ type: 'task.cancel' });
    await tick();
    // The page goes away without closing (a crash): only what was written counts.
    f.actor.stop();
    const [stored] = await f.inner.tasks();
    expect(stored).toMatchObject({
      answeredKeys: ['confirm'],
      unsentResponses: { confirm: { action: 'accept' } },
      cancelRequested: true,
      task: { status: 'input_required' },
    });

    const clock = new SimulatedClock();
    const now = () => f.now() + clock.now();
    const after = noCalls();
    const second: TaskActor = createActor(fakeMachine(asking, after), {
      clock,
      input: { ...resumeInputOf(stored!, now()), now },
    }).start();
    clock.increment(20);
    await vi.waitFor(() => expect(second.getSnapshot().context.polls).toBe(stored!.polls + 1));
    await vi.waitFor(() => expect(after.update).toEqual([{ confirm: { action: 'accept' } }]));
    await vi.waitFor(() => expect(after.cancel).toBe(1));
    expect(second.getSnapshot().context.pendingInputs).toEqual({});
    second.stop();
  });

  it('T9: an outcome is kept within the tick it is reached, progress or not', async () => {
    let status: DetailedTask['status'] = 'working';
    const f = followed({
      progressWriteMs: 60_000,
      report: () => ({ ...handle, resultType: undefined, status, result: { content: [] } }),
    });
    await f.poll();
    status = 'completed';
    f.clock.increment(20);
    await vi.waitFor(() => expect(f.actor.getSnapshot().value).toBe('completed'));
    await tick();
    expect(await f.inner.tasks()).toMatchObject([
      { outcome: 'completed', task: { status: 'completed' } },
    ]);
    expect((await f.inner.tasks())[0]).not.toHaveProperty('nextPollAt');
  });

  it('T12: closing writes every followed task at once, marked as the last word, without waiting for a write in flight', async () => {
    const f = followed({ progressWriteMs: 60_000 });
    await tick();
    const release = f.holdWrites();
    await f.poll();
    f.actor.send({ type: 'task.cancel' }); // Decisive: a write starts, and is held.
    await vi.waitFor(() => expect(f.writes).toHaveLength(2));
    await f.poll();
    const closed = f.journal.close();
    expect(f.writes).toHaveLength(3); // Started at once, not behind the held one.
    expect(f.writes[2]).toEqual([
      expect.objectContaining({
        polls: 2,
        nextPollAt: f.actor.getSnapshot().context.nextPollAt,
        keptAtClose: true,
      }),
    ]);
    release();
    await closed;
    await f.journal.flush();
    expect(f.writes).toHaveLength(3); // Nothing was left to write after it.
    expect((await f.inner.tasks())[0]).toMatchObject({ keptAtClose: true, polls: 2 });
    f.actor.stop();
  });

  it('T12, M5: after a close the reload keeps the schedule; after a crash (no close) it waits a whole interval', async () => {
    for (const closes of [true, false]) {
      const f = followed({ progressWriteMs: 60_000 });
      await tick(); // The first facts are written: their schedule, the first poll's.
      for (let i = 0; i < 3; i++) await f.poll();
      const due = f.actor.getSnapshot().context.nextPollAt!;
      if (closes) await f.journal.close();
      f.actor.stop();
      const [stored] = await f.inner.tasks();
      // The reload comes 30 ms after the poll was due: the old page's poll may or may not have gone.
      const reloadAt = due + 30;
      expect(stored!.nextPollAt! < reloadAt).toBe(true);
      expect(resumeInputOf(stored!, reloadAt).resume?.nextPollAt).toBe(
        closes ? due : reloadAt + 20,
      );
    }
  });

  it('T12: after a crash, progress written every poll still never makes the reload poll sooner than the interval', async () => {
    const f = followed({ progressWriteMs: 20 });
    await tick();
    for (let i = 0; i < 3; i++) await f.poll();
    await f.journal.flush();
    const due = f.actor.getSnapshot().context.nextPollAt!;
    f.actor.stop(); // A crash: no close.
    const [stored] = await f.inner.tasks();
    expect(stored).toMatchObject({ polls: 3, nextPollAt: due });
    expect(stored).not.toHaveProperty('keptAtClose');
    expect(resumeInputOf(stored!, due + 30).resume?.nextPollAt).toBe(due + 30 + 20);
  });

  it("T12, T17: after a crash, whichever was written last of the task's record and its progress is what the reload finds", async () => {
    const f = followed({ progressWriteMs: 1000 });
    await tick();
    for (let i = 0; i < 51; i++) await f.poll(); // 1020 ms: progress written.
    await vi.waitFor(() => expect(f.progressWrites).toHaveLength(1));
    f.actor.send({ type: 'task.cancel' }); // Decisive: the record, after the progress.
    await vi.waitFor(() => expect(f.writes).toHaveLength(2));
    const record = f.writes[1]![0]!;
    expect(record.revision).toBeGreaterThan(f.progressWrites[0]![0]!.revision);
    expect(await f.inner.tasks()).toEqual([record]);
    await f.poll();
    await f.journal.flush(); // Progress again, after the record.
    const [stored] = await f.inner.tasks();
    expect(stored).toMatchObject({ cancelRequested: true, polls: record.polls + 1 });
    expect(stored!.nextPollAt).toBe(f.actor.getSnapshot().context.nextPollAt);
    f.actor.stop();
  });

  it("T12: a reloaded page counts its writes on from what it found: its first facts win over the old page's progress", async () => {
    const f = followed({ progressWriteMs: 20 });
    await tick();
    for (let i = 0; i < 3; i++) await f.poll();
    await f.journal.flush();
    f.actor.stop(); // The old page crashed with its progress written.
    const writes: StoredTask[][] = [];
    const journal = new TaskJournal(
      withPutTasks(f.inner, async (tasks) => {
        writes.push(structuredClone([...tasks]));
        return f.inner.putTasks(tasks);
      }),
      { timers: f.clock, progressWriteMs: 60_000 },
    );
    const [found] = await journal.load();
    const clock = new SimulatedClock();
    const now = () => f.now() + 500 + clock.now();
    const second: TaskActor = createActor(fakeMachine(asking, noCalls()), {
      clock,
      input: { ...resumeInputOf(found!, now()), now },
    }).start();
    journal.track(second, facts);
    await tick();
    expect(writes[0]![0]!.revision).toBeGreaterThan(found!.revision!);
    // The new page crashes too, before any progress of its own: its record is what counts.
    second.stop();
    const [stored] = await f.inner.tasks();
    expect(stored!.nextPollAt).toBe(second.getSnapshot().context.nextPollAt);
    expect(stored!.nextPollAt).not.toBe(found!.nextPollAt);
  });

  it('a full disk is reported, and the facts not written go with the next progress write', async () => {
    const f = followed({ progressWriteMs: 1000 });
    f.setFull(true);
    await tick();
    expect(f.problems.at(-1)?.kind).toBe('full');
    f.setFull(false);
    f.clock.increment(1000);
    await vi.waitFor(() => expect(f.problems.at(-1)).toBeUndefined());
    expect((await f.inner.tasks()).map((t) => t.taskId)).toEqual(['t1']);
    f.actor.stop();
  });
});
