/**
 * The page's journal of followed tasks: facts written as actors change them,
 * fresh actors seeded from those facts after a "reload", finished tasks
 * rebuilt without running anything, and storage failures reported.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { followFactsOf, resumeInputOf } from '../../../src/client/task-facts.ts';
import type { TaskActor } from '../../../src/client/task-follower.ts';
import { TaskJournal } from '../../../src/client/task-journal.ts';
import type { DetailedTask } from '../../../src/protocol/task.ts';
import { MemoryPageStore } from '../../../src/store/memory-page-store.ts';
import {
  WIRE_LOG_LIMIT,
  type PageStore,
  type StorageProblem,
  type StoredWireEntry,
} from '../../../src/store/page-store.ts';
import {
  asked,
  asking,
  CREATED,
  facts,
  fakeMachine,
  handle,
  tick,
  withPutTasks,
} from '../helpers/journal-actors.ts';

describe('TaskJournal', () => {
  it('T12: a followed task is written within the tick it is followed, and as it changes', async () => {
    const store = new MemoryPageStore();
    const journal = new TaskJournal(store);
    const calls = { update: [] as unknown[], cancel: 0 };
    // On a simulated clock: the first poll waits for the test, however slow the machine running it.
    const clock = new SimulatedClock();
    const actor: TaskActor = createActor(fakeMachine(asking, calls), {
      clock,
      input: { task: handle, toolName: 'confirm_delete' },
    }).start();
    journal.track(actor, facts);
    await tick();
    expect(await store.tasks()).toMatchObject([
      {
        taskId: 't1',
        toolName: 'confirm_delete',
        arguments: { filename: 'a.txt' },
        identity: 'learner',
        task: { status: 'working' },
      },
    ]);

    clock.increment(20);
    await asked(actor);
    actor.send({ type: 'task.answer', responses: { confirm: { action: 'accept' } } });
    actor.send({ type: 'task.cancel' });
    await tick();
    expect(await store.tasks()).toMatchObject([
      {
        task: { status: 'input_required' },
        answeredKeys: ['confirm'],
        unsentResponses: { confirm: { action: 'accept' } },
        cancelRequested: true,
      },
    ]);
    actor.stop();
  });

  it('T14, T15, T17: after a "reload" the fresh actor never asks an answered key again, and re-sends what was unacknowledged', async () => {
    const store = new MemoryPageStore();
    const before = { update: [] as unknown[], cancel: 0 };
    const first: TaskActor = createActor(fakeMachine(asking, before), {
      input: { task: handle, toolName: 'confirm_delete' },
    }).start();
    new TaskJournal(store).track(first, facts);
    await asked(first);
    first.send({ type: 'task.answer', responses: { confirm: { action: 'accept' } } });
    await tick();
    // The page goes away: the actor stops, its facts stay.
    first.stop();

    const [stored] = await new TaskJournal(store).load();
    const after = { update: [] as unknown[], cancel: 0 };
    const second: TaskActor = createActor(fakeMachine(asking, after), {
      input: resumeInputOf(stored!, Date.now()),
    }).start();
    await vi.waitFor(() =>
      expect(second.getSnapshot().context.polls).toBeGreaterThan(stored!.polls),
    );
    await vi.waitFor(() => expect(after.update).toHaveLength(1));
    expect(second.getSnapshot().context.pendingInputs).toEqual({});
    expect(second.getSnapshot().context.answeredKeys).toEqual(['confirm']);
    expect(after.update).toEqual([{ confirm: { action: 'accept' } }]);
    expect(followFactsOf(stored!)).toEqual(facts);
    second.stop();
  });

  it("T12: the stored nextPollAt is the machine's own, through polls and to the end", async () => {
    const store = new MemoryPageStore();
    const journal = new TaskJournal(store);
    const clock = new SimulatedClock();
    const start = Date.parse(CREATED);
    let status: DetailedTask['status'] = 'working';
    const calls = { update: [] as unknown[], cancel: 0 };
    const report = (): DetailedTask => ({
      ...handle,
      resultType: undefined,
      status,
      pollIntervalMs: 300,
      lastUpdatedAt: new Date(start + clock.now()).toISOString(),
    });
    const actor: TaskActor = createActor(fakeMachine(report, calls), {
      clock,
      input: { task: handle, toolName: 'x', now: () => start + clock.now() },
    }).start();
    const stored = async () => (await store.tasks())[0];
    journal.track(actor, facts);
    await journal.flush();
    expect((await stored())?.nextPollAt).toBe(start + 20);

    clock.increment(20); // the first tasks/get; its answer asks for 300 ms from now on
    await vi.waitFor(() => expect(actor.getSnapshot().context.polls).toBe(1));
    await journal.flush();
    expect(actor.getSnapshot().context.nextPollAt).toBe(start + 320);
    expect((await stored())?.nextPollAt).toBe(start + 320);

    status = 'completed';
    clock.increment(300);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('completed'));
    await journal.flush();
    expect(await stored()).toMatchObject({ outcome: 'completed' });
    expect(await stored()).not.toHaveProperty('nextPollAt');
  });

  it('"Stop following" deletes the task; stopping the actor (the page closing) changes nothing', async () => {
    const store = new MemoryPageStore();
    const journal = new TaskJournal(store);
    const calls = { update: [] as unknown[], cancel: 0 };
    const kept: TaskActor = createActor(fakeMachine(asking, calls), {
      input: { task: { ...handle, taskId: 'kept' }, toolName: 'x' },
    }).start();
    const dropped: TaskActor = createActor(fakeMachine(asking, calls), {
      input: { task: { ...handle, taskId: 'dropped' }, toolName: 'x' },
    }).start();
    journal.track(kept, facts);
    journal.track(dropped, facts);
    await tick();
    kept.stop();
    dropped.send({ type: 'task.forget' });
    await journal.forget(['dropped']);
    expect((await store.tasks()).map((t) => t.taskId)).toEqual(['kept']);
  });

  it('a full disk is reported, the facts are tried again, and the report clears once a write works', async () => {
    const inner = new MemoryPageStore();
    let full = true;
    const store = withPutTasks(inner, async (tasks) => {
      if (full) throw new DOMException('quota', 'QuotaExceededError');
      return inner.putTasks(tasks);
    });
    const problems: (StorageProblem | undefined)[] = [];
    const journal = new TaskJournal(store, { onProblem: (p) => problems.push(p) });
    const calls = { update: [] as unknown[], cancel: 0 };
    const actor: TaskActor = createActor(fakeMachine(asking, calls), {
      input: { task: handle, toolName: 'x' },
    }).start();
    journal.track(actor, facts);
    await journal.flush();
    expect(problems).toEqual([
      { kind: 'full', message: expect.stringContaining('Browser storage is full') },
    ]);
    expect(journal.problem?.kind).toBe('full');

    full = false;
    await vi.waitFor(() => expect(actor.getSnapshot().context.polls).toBeGreaterThan(0));
    await journal.flush();
    expect(problems.at(-1)).toBeUndefined();
    expect((await inner.tasks()).map((t) => t.taskId)).toEqual(['t1']);
    actor.stop();
  });

  it('T12: many tasks changing while a slow write is in flight go into one next write, not a queue of them', async () => {
    const inner = new MemoryPageStore();
    const writes: number[] = [];
    let release: () => void = () => {};
    let slow = true;
    const store = withPutTasks(inner, async (tasks) => {
      writes.push(tasks.length);
      if (slow) await new Promise<void>((resolve) => (release = resolve)); // A slow disk: each write waits to be released.
      return inner.putTasks(tasks);
    });
    const journal = new TaskJournal(store);
    const calls = { update: [] as unknown[], cancel: 0 };
    const actors: TaskActor[] = [];
    // On a clock that never moves: nothing polls, so what changes meanwhile is exactly the new tasks.
    const clock = new SimulatedClock();
    const follow = (i: number) => {
      const actor: TaskActor = createActor(fakeMachine(asking, calls), {
        clock,
        input: { task: { ...handle, taskId: `t${i}` }, toolName: 'x' },
      }).start();
      journal.track(actor, { ...facts, followedAt: i });
      actors.push(actor);
    };
    follow(0);
    await tick(); // The first write is now in flight, and held.
    for (let i = 1; i <= 100; i++) {
      follow(i);
      await tick();
    }
    expect(writes).toEqual([1]); // Nothing piled up behind the held write.
    release();
    await vi.waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[1]).toBe(100); // Everything followed meanwhile, in one write.
    slow = false;
    release();
    await journal.flush();
    expect(await inner.tasks()).toHaveLength(101);
    for (const actor of actors) actor.stop();
  });

  it('keeps wire messages in order, in batches', async () => {
    const store = new MemoryPageStore();
    const journal = new TaskJournal(store, { wireBatchMs: 5 });
    for (let seq = 1; seq <= 5; seq++)
      journal.recordWire({ seq, at: seq, direction: seq % 2 ? 'out' : 'in', message: { id: seq } });
    await journal.flush();
    journal.recordWire({ seq: 6, at: 6, direction: 'out', message: { id: 6 }, reissueOf: 3 });
    await journal.flush();
    expect((await store.wire()).map((e) => e.at)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await store.wire()).at(-1)).toEqual({
      at: 6,
      direction: 'out',
      message: { id: 6 },
      reissueOf: 3,
    });
  });

  it('T12: of a busy stretch it writes only the newest messages the store keeps, however many gathered', async () => {
    const store = new MemoryPageStore();
    const written: number[] = [];
    const counting: PageStore = Object.assign(Object.create(store) as PageStore, {
      appendWire: (entries: readonly StoredWireEntry[]) => {
        written.push(entries.length);
        return store.appendWire(entries);
      },
    });
    // On a simulated clock: nothing is written until the test flushes.
    const journal = new TaskJournal(counting, { timers: new SimulatedClock() });
    const total = 2 * WIRE_LOG_LIMIT + 1;
    for (let seq = 1; seq <= total; seq++)
      journal.recordWire({ seq, at: seq, direction: 'in', message: { id: seq } });
    await journal.flush();
    expect(written).toEqual([WIRE_LOG_LIMIT]);
    const kept = await store.wire();
    expect(kept.map((e) => e.at)).toEqual(
      Array.from({ length: WIRE_LOG_LIMIT }, (_, i) => total - WIRE_LOG_LIMIT + 1 + i),
    );
  });

  it('T19: a wire message from a remote server is kept with its HTTP facts, so its status badge survives a reload', async () => {
    const store = new MemoryPageStore();
    const journal = new TaskJournal(store, { wireBatchMs: 5 });
    const http = {
      status: 200,
      statusText: 'OK',
      contentType: 'application/json',
      requestHeaders: { 'mcp-method': 'tasks/get', 'mcp-name': 't1' },
      ms: 12,
    };
    journal.recordWire({ seq: 1, at: 1, direction: 'in', message: { id: 1 }, http });
    journal.recordWire({ seq: 2, at: 2, direction: 'out', message: { id: 2 } });
    await journal.flush();
    const kept = await journal.loadWire();
    expect(kept[0]).toEqual({ at: 1, direction: 'in', message: { id: 1 }, http });
    expect(kept[1]).not.toHaveProperty('http');
  });

  it('a load that storage never answers (a blocked open) gives up, says so, and the page starts without it', async () => {
    const never = new Promise<never>(() => {});
    const store = { tasks: () => never, wire: () => never } as unknown as PageStore;
    const problems: (StorageProblem | undefined)[] = [];
    const journal = new TaskJournal(store, {
      readTimeoutMs: 20,
      onProblem: (p) => problems.push(p),
    });
    expect(await journal.load()).toEqual([]);
    expect(await journal.loadWire()).toEqual([]);
    expect(problems).toEqual([
      { kind: 'unavailable', message: expect.stringContaining('no answer within 20 ms') },
    ]);
  });
});
