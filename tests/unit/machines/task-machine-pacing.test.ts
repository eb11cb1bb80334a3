/**
 * How often the task machine sends tasks/get (T12): paced send to send, by
 * frequency as the spec words it. The next tasks/get is due one interval (the
 * latest report's, T6) after the previous one was sent, and never sooner than
 * the interval less its slack (10 %, at most 50 ms) after its answer, so no two
 * reach the server closer than that. Driven by SimulatedClock, with answers that take a set time.
 */
import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { pollsBy, taskMachine } from '../../../src/machines/task-machine.ts';
import type { DetailedTask } from '../../../src/protocol/task.ts';
import { BASE, created, flush, follow, report } from '../helpers/task-machine-driver.ts';

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

/** Follows a task whose n-th tasks/get is answered `roundTrip(n)` ms after it was sent. */
function answeredAfter(
  roundTrip: (n: number) => number,
  reported: (n: number, at: number) => DetailedTask = (n, at) =>
    report('working', { pollIntervalMs: 250 }, at),
  task = { pollIntervalMs: 250 },
) {
  const due: { at: number; resolve: () => void }[] = [];
  const driven = follow({
    task,
    poll: async (n, at) => {
      await new Promise<void>((resolve) => due.push({ at: at + roundTrip(n), resolve }));
      return reported(n, at);
    },
  });
  /** Advances 1 ms at a time, answering each tasks/get when its round trip is over. */
  const run = async (ms: number) => {
    for (let i = 0; i < ms; i++) {
      await driven.advance(1);
      for (const answer of due.filter((d) => d.at <= driven.clock.now())) {
        due.splice(due.indexOf(answer), 1);
        answer.resolve();
      }
      await flush();
      // Timers due now (a poll due at once on its answer) fire at this same ms.
      driven.clock.increment(0);
      await flush();
    }
  };
  const sentAt = () => driven.calls.get.map((c) => c.at);
  return { ...driven, run, sentAt };
}

describe('taskMachine: polls paced send to send (T12)', () => {
  it('T12: with a 20 ms round trip each tasks/get goes one interval after the previous was sent, not after its answer', async () => {
    const { run, sentAt } = answeredAfter(() => 20);
    await run(1100);
    // Answer-paced would be 250, 520, 790, 1060: each cycle the interval plus the round trip.
    expect(sentAt()).toEqual([250, 500, 750, 1000]);
  });

  it('T12: a round trip longer than the slack is paid beyond it: the next goes the interval less 25 ms after the answer', async () => {
    const { run, sentAt } = answeredAfter(() => 100);
    await run(1000);
    // Answered at 350: 350 + 225. Paced from the send alone, 500 and 750, which a server could
    // see 150 ms apart (the first arriving just before its answer, the next at once).
    expect(sentAt()).toEqual([250, 575, 900]);
  });

  it('T12: two tasks/get are never closer than the interval in force, whatever the round trips', async () => {
    const trips = [0, 30, 249, 250, 251, 10, 600, 1, 120];
    const { run, sentAt, calls } = answeredAfter((n) => trips[n - 1] ?? 0);
    await run(4000);
    const sent = sentAt();
    expect(sent.length).toBeGreaterThan(trips.length);
    // Each gap is the interval, or the round trip + 225 ms when that is longer (one in flight).
    gaps(sent)
      .slice(0, trips.length)
      .forEach((gap, i) => expect(gap).toBe(Math.max(250, trips[i]! + 225)));
    for (const gap of gaps(sent)) expect(gap).toBeGreaterThanOrEqual(250);
    // However the trip splits, a request reaches the server before its answer leaves, and the
    // next one after it is sent: arrivals are at least the interval less its slack apart.
    sent.slice(0, trips.length).forEach((at, i) => {
      expect(sent[i + 1]! - (at + trips[i]!)).toBeGreaterThanOrEqual(225);
    });
    expect(calls.get[0]?.at).toBe(250);
  });

  it('T12: an answer slower than the interval is followed the interval less its slack after it', async () => {
    const { run, sentAt, snap } = answeredAfter(() => 400);
    await run(880);
    // Sent at 250, answered at 650: already an interval past its send, so 650 + 225.
    expect(sentAt()).toEqual([250, 875]);
    expect(snap().matches({ active: { lifecycle: 'polling' } })).toBe(true);
    await run(630);
    expect(sentAt()).toEqual([250, 875, 1500]);
  });

  it('T6, T12: an answer reporting a new interval paces the next tasks/get by it, from the send it answers', async () => {
    const { run, sentAt, snap } = answeredAfter(
      () => 20,
      (n, at) => report('working', { pollIntervalMs: n === 1 ? 600 : 250 }, at),
    );
    await run(400);
    // The first tasks/get (sent at 250) is answered at 270 with 600 ms: due at 850, not 870.
    expect(snap().context.nextPollAt).toBe(BASE + 850);
    await run(1000);
    expect(sentAt()).toEqual([250, 850, 1100, 1350]);
  });

  it('T6, T12, T18: a push changing the interval re-arms the wait from the last send, not from the push', async () => {
    const { run, sentAt, send, snap, clock } = answeredAfter(() => 50);
    await run(400); // sent at 250, answered at 300; now 400, due at 500
    expect(sentAt()).toEqual([250]);
    await send({
      type: 'task.notification',
      task: report('working', { pollIntervalMs: 1000 }, 400),
    });
    expect(snap().context.nextPollAt).toBe(BASE + 1250);
    await run(849); // 1249
    expect(sentAt()).toEqual([250]);
    await run(1);
    expect(sentAt()).toEqual([250, 1250]);
    // A shorter interval pushed when the last send is already that far back: due at once.
    await run(100); // answered at 1300; now 1350
    await send({
      type: 'task.notification',
      task: report('working', { pollIntervalMs: 50 }, 1350),
    });
    expect(snap().context.nextPollAt).toBe(BASE + 1350);
    clock.increment(0);
    await flush();
    expect(sentAt()).toEqual([250, 1250, 1350]);
  });

  it('T12: before its first tasks/get the wait counts from the handle, and a push changing the interval counts from the push', async () => {
    const { run, sentAt, send } = answeredAfter(() => 10, undefined, { pollIntervalMs: 1000 });
    await run(300);
    // No tasks/get sent yet: nothing to pace from but now (the CreateTaskResult was at 0).
    await send({
      type: 'task.notification',
      task: report('working', { pollIntervalMs: 500 }, 300),
    });
    await run(499);
    expect(sentAt()).toEqual([]);
    await run(1);
    expect(sentAt()).toEqual([800]);
  });

  it('C8, T12: a tasks/get that went out again paces the next one from its re-send', async () => {
    const clock = new SimulatedClock();
    const sends: number[] = [];
    let resend: () => void = () => {};
    let answer: (task: DetailedTask) => void = () => {};
    const machine = taskMachine.provide({
      actions: {
        sendPoll: pollsBy((_, resent) => {
          sends.push(clock.now());
          resend = resent;
          return new Promise((resolve) => (answer = resolve));
        }),
      },
    });
    const actor = createActor(machine, {
      clock,
      input: { task: created(), toolName: 'slow_compute', now: () => BASE + clock.now() },
    });
    actor.start();
    clock.increment(1000);
    await flush();
    expect(sends).toEqual([1000]);
    clock.increment(700);
    resend(); // the link dropped; the same tasks/get left again at 1700 (C8)
    clock.increment(20);
    answer(report('working', {}, 1720));
    await flush();
    // Paced from the re-send the server saw at 1700, not the first send at 1000.
    expect(actor.getSnapshot().context.nextPollAt).toBe(BASE + 2700);
    expect(actor.getSnapshot().context.lastPollSentAt).toBe(BASE + 1700);
    actor.stop();
  });
});
