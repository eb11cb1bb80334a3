/**
 * Small recorded runs for the replay's tests: one task created, polled,
 * dropped off the link and cancelled, as the session's own payload types.
 */
import type { WireEntry } from '../../../src/client/rpc-client.ts';
import type { ReplayEvent } from '../../../src/replay/replay-events.ts';
import type { Ticker } from '../../../src/replay/replay-player.ts';
import type { TaskStatus } from '../../../src/protocol/task.ts';

let seq = 0;

export function resetSeq(): void {
  seq = 0;
}

/** A request the page sent, with the network's mark when `packet` is given. */
export function sent(at: number, method: string, params: object, packet?: number): ReplayEvent {
  const id = ++seq;
  const entry: WireEntry = {
    seq: id,
    at: 1_700_000_000_000 + at,
    direction: 'out',
    message: { jsonrpc: '2.0', id, method, params },
    ...(packet === undefined
      ? {}
      : { net: { packet, link: 1, direction: 'out', sentAt: at, delayMs: 5 } }),
  };
  return { at, kind: 'wire', entry };
}

/** The server's answer to request `id`, carrying a task's status. */
export function answered(at: number, id: number, taskId: string, status: TaskStatus): ReplayEvent {
  const entry: WireEntry = {
    seq: ++seq,
    at: 1_700_000_000_000 + at,
    direction: 'in',
    message: { jsonrpc: '2.0', id, result: { resultType: 'task', taskId, status } },
  };
  return { at, kind: 'wire', entry };
}

/** Drop, cancel race: create, poll, drop, cancel, completed anyway. */
export function cancelRace(): ReplayEvent[] {
  resetSeq();
  return [
    sent(0, 'tools/call', { name: 'slow_compute', arguments: { seconds: 2 } }, 1),
    { at: 4, kind: 'packet', update: { packet: 1, at: 4, deliveredAt: 4 } },
    answered(10, 1, 't1', 'working'),
    {
      at: 11,
      kind: 'task-step',
      step: {
        taskId: 't1',
        event: 'task.created',
        value: { active: 'polling' },
        serverStatus: 'working',
        toolName: 'slow_compute',
      },
    },
    {
      at: 12,
      kind: 'xray',
      taskId: 't1',
      reading: { kind: 'stored', status: 'working', since: 1 },
    },
    sent(1000, 'tasks/get', { taskId: 't1' }, 2),
    {
      at: 1001,
      kind: 'fault',
      notice: {
        id: 1,
        afterSeq: 3,
        at: 1001,
        kind: 'drop',
        text: 'link #1 broken',
        taskIds: ['t1'],
      },
    },
    { at: 1001, kind: 'packet', update: { packet: 2, at: 1001, lost: 'link-dropped' } },
    sent(1500, 'tasks/cancel', { taskId: 't1' }),
    {
      at: 1600,
      kind: 'xray',
      taskId: 't1',
      reading: { kind: 'stored', status: 'completed', since: 2 },
    },
    answered(1700, 4, 't1', 'completed'),
    {
      at: 1701,
      kind: 'task-step',
      step: {
        taskId: 't1',
        event: 'poll.answered',
        value: 'completed',
        serverStatus: 'completed',
        toolName: undefined,
      },
    },
    { at: 3000, kind: 'other', label: 'page closed' },
  ];
}

/** A clock that moves only when work says it took time (`spend`), and frames run by hand (`frame`). */
export function manualTicker(): Ticker & { frame(): void; spend(ms: number): void } {
  let now = 0;
  let waiting: (() => void)[] = [];
  return {
    now: () => now,
    later(callback) {
      waiting.push(callback);
      return () => {
        waiting = waiting.filter((c) => c !== callback);
      };
    },
    frame() {
      const due = waiting;
      waiting = [];
      for (const callback of due) callback();
    },
    spend(ms) {
      now += ms;
    },
  };
}

/** A ticker on a simulated clock: `advance(ms)` runs a frame every 16 ms. */
export function simulatedTicker(): Ticker & { advance(ms: number): void } {
  const ticker = manualTicker();
  return {
    now: ticker.now,
    later: ticker.later,
    advance(ms) {
      const end = ticker.now() + ms;
      while (ticker.now() < end) {
        ticker.spend(Math.min(16, end - ticker.now()));
        ticker.frame();
      }
    },
  };
}
