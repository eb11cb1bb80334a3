/**
 * Where a poll's cycle goes beyond its interval, in the page-follow part.
 * Each task's next tasks/get is due the interval after the previous one was
 * sent, and no sooner than the interval less its slack after its answer (T12,
 * `nextPollDueAt`), so a task's cycle (one tasks/get to the next) is that wait
 * (`due after`: the interval, or the round trip + the interval less its slack
 * when that is longer), then `late`; per tasks/get:
 *
 * - `to the worker's answer`: from the request handed to the page's port to
 *   its answer handed to the worker's port (the way out, the worker's queue
 *   and its work);
 * - `back to the page`: from there to the page's port handler starting on
 *   it (the way back, and the page's main thread busy with tasks ahead of
 *   the answer's message);
 * - from the due time to the next request handed to the port: `late`, split by the world clock's round that sent it into `wall timer
 *   late` (the wall timer's round began after the time it was set for),
 *   `round before the send` (from the round's start to its batch handed to
 *   the port: the due polls run ahead of it and the network's hops) and
 *   `due to timer` (what remains: from the due time to the time the wall
 *   timer was set for, as when the answer's handling up to `poll.answered`
 *   ended after the due time).
 *
 * Everything is read where the page meets its worker, by wrapping
 * `MessagePort.prototype.postMessage`, the ports' message listeners and
 * `setTimeout` (the world clock's one wall timer: `realTimers` looks it up
 * on each call) in the page, and `MessagePort.prototype.postMessage` in the
 * worker, on one time line (`performance.timeOrigin + performance.now()`
 * on both threads); nothing in `src/` knows. Recorded only in the measured
 * window; outside it a call costs a flag test (a timer, a closure more).
 * Strings run in the page and the worker (tsx's helpers do not exist there).
 */
import type { Page } from '@playwright/test';
import { figure, percentile, type Figure } from './figures.ts';
import { nextPollDueAt } from '../../src/machines/task-machine-timing.ts';

/** The page's side, added before its scripts. */
export const RECORD_POLL_CYCLE_IN_PAGE = `
  (() => {
    const at = () => performance.timeOrigin + performance.now();
    const cycle = (window.__benchPollCycle = { on: false, posts: [], answers: [], rounds: [] });
    // The task the page is in: set when a wall timer's callback or a port message starts, so a
    // request handed to the port in that task's microtasks is known by the round that sent it.
    let round = -1;
    const each = (data) => (Array.isArray(data) ? data : [data]);
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (message, ...rest) {
      if (cycle.on) {
        const t = at();
        for (const m of each(message))
          if (m?.method === 'tasks/get') cycle.posts.push([t, m.id, m.params?.taskId, round]);
      }
      return post.call(this, message, ...rest);
    };
    const listen = MessagePort.prototype.addEventListener;
    MessagePort.prototype.addEventListener = function (type, listener, ...rest) {
      if (type === 'message')
        listen.call(this, 'message', (event) => {
          round = -1;
          if (!cycle.on) return;
          const t = at();
          for (const m of each(event.data))
            if (m && typeof m === 'object' && 'id' in m && ('result' in m || 'error' in m))
              cycle.answers.push([t, m.id]);
        });
      return listen.call(this, type, listener, ...rest);
    };
    const setTimer = globalThis.setTimeout;
    globalThis.setTimeout = function (callback, ms, ...rest) {
      if (typeof callback !== 'function') return setTimer.call(this, callback, ms, ...rest);
      // Every timer, so a round set before the window is still told apart from the one before it.
      const setFor = at() + Math.max(0, Number(ms) || 0);
      return setTimer.call(this, (...args) => {
        round = -1;
        if (cycle.on) {
          round = cycle.rounds.length;
          cycle.rounds.push([setFor, at()]);
        }
        return callback(...args);
      }, ms, ...rest);
    };
  })();
`;

/** The worker's side, run in it once it is up (its listeners are set; only posts are counted). */
export const RECORD_POLL_CYCLE_IN_WORKER = `
  (() => {
    if (self.__benchPollCycle) return;
    const at = () => performance.timeOrigin + performance.now();
    const cycle = (self.__benchPollCycle = { on: false, answers: [] });
    const post = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (message, ...rest) {
      if (cycle.on) {
        const t = at();
        for (const m of Array.isArray(message) ? message : [message])
          if (m && typeof m === 'object' && 'id' in m && ('result' in m || 'error' in m))
            cycle.answers.push([t, m.id]);
      }
      return post.call(this, message, ...rest);
    };
  })();
`;

/** What the page recorded: `[at, id, taskId, round]` per tasks/get, `[at, id]` per answer, `[setFor, startedAt]` per wall timer. */
export interface PageRecord {
  posts: [number, unknown, string, number][];
  answers: [number, unknown][];
  rounds: [number, number][];
}

/** What the worker recorded: `[at, id]` per answer handed to its port. */
export interface WorkerRecord {
  answers: [number, unknown][];
}

/** p50/p95/p99 and the mean of one hop, ms. */
export interface Spread {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  count: number;
}

export interface PollCycle {
  intervalMs: number;
  /** Request to the next request of the same task, both handed to the page's port in the window. */
  cycle: Spread;
  /** Request handed to the page's port to its answer handed to the worker's (`undefined` without the worker's side). */
  toWorkerAnswer: Spread | undefined;
  /** The worker's answer to the page's port handler. */
  backToPage: Spread | undefined;
  /** Request at the page's port to its answer at the page's port handler. */
  roundTrip: Spread;
  /** From the previous request to when this one was due: `nextPollDueAt` less the previous request's send (T12). */
  dueAfter: Spread;
  /** From when the request was due (`nextPollDueAt` of the previous request and its answer at the page's handler) to it at the port. */
  late: Spread;
  /** Of `late`: the wall timer's round starting after the time it was set for. */
  wallTimerLate: Spread;
  /** Of `late`: from the round's start to its batch handed to the port. */
  roundBeforeSend: Spread;
  /** Of `late`: the rest, from the due time to the wall timer's set time (the answer's handling up to `poll.answered` when it ended later). */
  answerToDue: Spread;
  /** Per tasks/get, how many tasks/get left in the same `postMessage` as it (one timestamp per call). */
  sentTogether: Spread;
  /** Per tasks/get, how many answers the worker handed to its port in the same `postMessage` as its own. */
  answeredTogether: Spread | undefined;
}

/**
 * Per item, how many items share its time (one `postMessage` stamps all it
 * carries with one time). Posts within one tick of the page's clock count as
 * one: Chromium coarsens `performance.now()` to 0.1 ms on a page that is not
 * cross-origin isolated.
 */
function together(times: number[]): number[] {
  const count = new Map<number, number>();
  for (const t of times) count.set(t, (count.get(t) ?? 0) + 1);
  return times.map((t) => count.get(t)!);
}

function spread(values: number[]): Spread {
  const mean = values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
  return {
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    mean,
    count: values.length,
  };
}

/** Pairs the requests with their answers and the task's next request (pure; `tests/unit/scripts/poll-cycle.test.ts`). */
export function pollCycle(
  page: PageRecord,
  worker: WorkerRecord | undefined,
  intervalMs: number,
): PollCycle {
  const answeredAt = new Map<unknown, number>();
  for (const [at, id] of page.answers) if (!answeredAt.has(id)) answeredAt.set(id, at);
  const workerAt = new Map<unknown, number>();
  for (const [at, id] of worker?.answers ?? []) if (!workerAt.has(id)) workerAt.set(id, at);
  const hops = {
    cycle: [] as number[],
    toWorker: [] as number[],
    back: [] as number[],
    roundTrip: [] as number[],
    dueAfter: [] as number[],
    late: [] as number[],
    wallTimerLate: [] as number[],
    roundBeforeSend: [] as number[],
    answerToDue: [] as number[],
  };
  const previous = new Map<string, { at: number; id: unknown }>();
  for (const [at, id, taskId, round] of page.posts) {
    const answer = answeredAt.get(id);
    if (answer !== undefined) {
      hops.roundTrip.push(answer - at);
      const answeredByWorker = workerAt.get(id);
      if (answeredByWorker !== undefined) {
        hops.toWorker.push(answeredByWorker - at);
        hops.back.push(answer - answeredByWorker);
      }
    }
    const before = previous.get(taskId);
    previous.set(taskId, { at, id });
    const beforeAnswer = before && answeredAt.get(before.id);
    if (!before || beforeAnswer === undefined) continue;
    hops.cycle.push(at - before.at);
    const due = nextPollDueAt(before.at, beforeAnswer, intervalMs);
    hops.dueAfter.push(due - before.at);
    const late = at - due;
    hops.late.push(late);
    const sentBy = page.rounds[round];
    if (!sentBy) continue;
    const [setFor, startedAt] = sentBy;
    hops.wallTimerLate.push(startedAt - setFor);
    hops.roundBeforeSend.push(at - startedAt);
    hops.answerToDue.push(late - (at - setFor));
  }
  const workerSide = (values: number[]) => (worker ? spread(values) : undefined);
  const answeredTogether = together((worker?.answers ?? []).map(([at]) => at));
  return {
    intervalMs,
    cycle: spread(hops.cycle),
    toWorkerAnswer: workerSide(hops.toWorker),
    backToPage: workerSide(hops.back),
    roundTrip: spread(hops.roundTrip),
    dueAfter: spread(hops.dueAfter),
    late: spread(hops.late),
    wallTimerLate: spread(hops.wallTimerLate),
    roundBeforeSend: spread(hops.roundBeforeSend),
    answerToDue: spread(hops.answerToDue),
    sentTogether: spread(together(page.posts.map(([at]) => at))),
    answeredTogether: workerSide(answeredTogether),
  };
}

/** The page's workers, instrumented (idempotent), recording or not. */
async function inWorkers(page: Page, on: boolean): Promise<void> {
  for (const worker of page.workers()) {
    await worker.evaluate(RECORD_POLL_CYCLE_IN_WORKER).catch(() => undefined);
    await worker
      .evaluate(`self.__benchPollCycle && (self.__benchPollCycle.on = ${on})`)
      .catch(() => undefined);
  }
}

/** Starts recording in the page and its workers (the page must have {@link RECORD_POLL_CYCLE_IN_PAGE} as an init script). */
export async function startPollCycle(page: Page): Promise<void> {
  await inWorkers(page, true);
  await page.evaluate(`window.__benchPollCycle.on = true`);
}

/** Stops recording and summarises what was recorded. */
export async function stopPollCycle(page: Page, intervalMs: number): Promise<PollCycle> {
  await page.evaluate(`window.__benchPollCycle.on = false`);
  await inWorkers(page, false);
  const pageRecord = await page.evaluate<PageRecord>(
    `(() => { const c = window.__benchPollCycle; const r = { posts: c.posts, answers: c.answers, rounds: c.rounds }; c.posts = []; c.answers = []; c.rounds = []; return r; })()`,
  );
  // The server worker is the one that answered tasks/get (the page may run others).
  let workerRecord: WorkerRecord | undefined;
  for (const worker of page.workers()) {
    const record = await worker
      .evaluate<WorkerRecord | undefined>(
        `(() => { const c = self.__benchPollCycle; if (!c) return undefined; const r = { answers: c.answers }; c.answers = []; return r; })()`,
      )
      .catch(() => undefined);
    if (record && record.answers.length > (workerRecord?.answers.length ?? 0))
      workerRecord = record;
  }
  return pollCycle(pageRecord, workerRecord, intervalMs);
}

const ms = (s: Spread | undefined) =>
  s
    ? `p50 ${s.p50.toFixed(1)} / p95 ${s.p95.toFixed(1)} / p99 ${s.p99.toFixed(1)}, mean ${s.mean.toFixed(1)} ms`
    : 'not recorded';

const count = (s: Spread | undefined) =>
  s ? `p50 ${s.p50} / p95 ${s.p95} / p99 ${s.p99} (mean ${s.mean.toFixed(0)})` : 'not recorded';

/** Printable lines, beside the interval and the cycle the achieved rate implies. */
export function formatPollCycle(
  label: string,
  cycle: PollCycle,
  achievedCycleMs: number,
): string[] {
  const sum = cycle.dueAfter.mean + cycle.late.mean;
  return [
    `${label}: per tasks/get (${cycle.cycle.count} cycles), ms beside the ${cycle.intervalMs} ms interval:`,
    `  cycle, request to the task's next:  ${ms(cycle.cycle)} (achieved rate: ${achievedCycleMs.toFixed(1)} ms)`,
    `  round trip, page port to handler:   ${ms(cycle.roundTrip)}`,
    `    to the worker's answer:           ${ms(cycle.toWorkerAnswer)}`,
    `    back to the page's handler:       ${ms(cycle.backToPage)}`,
    `  due after (T12 rule):           ${ms(cycle.dueAfter)}`,
    `  late, due to request:               ${ms(cycle.late)}`,
    `    wall timer late:                  ${ms(cycle.wallTimerLate)}`,
    `    round before the send:            ${ms(cycle.roundBeforeSend)}`,
    `    due to timer (the rest):          ${ms(cycle.answerToDue)}`,
    `  batches, per tasks/get: sent with ${count(cycle.sentTogether)}; answered by the worker with ${count(cycle.answeredTogether)}`,
    `  due after + late (means): ${sum.toFixed(1)} ms, against ${achievedCycleMs.toFixed(1)} ms from the achieved rate`,
  ];
}

/** The cycle's three figures for the bench table: round trip, lateness, and their sum against the achieved cycle. */
export function cycleFigures(
  part: string,
  label: string,
  pollCycle: PollCycle,
  cycleMs: number,
): Figure[] {
  return [
    figure(
      part,
      `tasks/get round trip p50, ${label}`,
      pollCycle.roundTrip.p50,
      'ms',
      { name: 'poll interval', value: pollCycle.intervalMs },
      `page port to the answer's handler; p95 ${pollCycle.roundTrip.p95.toFixed(1)}, p99 ${pollCycle.roundTrip.p99.toFixed(1)} ms; of it to the worker's answer p50 ${pollCycle.toWorkerAnswer?.p50.toFixed(1) ?? '?'}, back to the page p50 ${pollCycle.backToPage?.p50.toFixed(1) ?? '?'} ms`,
    ),
    figure(
      part,
      `poll late past due p50, ${label}`,
      pollCycle.late.p50,
      'ms',
      { name: 'poll interval', value: pollCycle.intervalMs },
      `p95 ${pollCycle.late.p95.toFixed(1)}, p99 ${pollCycle.late.p99.toFixed(1)} ms; wall timer late p50 ${pollCycle.wallTimerLate.p50.toFixed(1)}, round before the send p50 ${pollCycle.roundBeforeSend.p50.toFixed(1)} ms`,
    ),
    figure(
      part,
      `due after + late (means), ${label}`,
      pollCycle.dueAfter.mean + pollCycle.late.mean,
      'ms',
      { name: 'cycle from the achieved rate', value: cycleMs },
    ),
  ];
}
