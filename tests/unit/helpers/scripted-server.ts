/**
 * A small scripted Tasks server for client tests on a simulated clock: its
 * tasks follow a script in simulated time (work, maybe ask for input, work,
 * complete), and it answers `tasks/get|update|cancel` and
 * `subscriptions/listen` at once. It forgets everything when killed, like
 * the in-memory store. Not the real server: the real one runs on real
 * timers; this one lets a whole faulty run happen in simulated time.
 */
import type { SimulatedClock } from 'xstate';
import type { CreateTaskResult, DetailedTask, TaskStatus } from '../../../src/protocol/task.ts';
import { FakeServerEnd } from './fake-link.ts';

export const BASE = Date.parse('2026-07-28T10:00:00.000Z');

export interface TaskScript {
  /** Work before asking for input; no input when absent. */
  inputAfterMs?: number;
  /** Work after the answer (or from the start without input) until completed. */
  workMs: number;
  /** Ignores tasks/cancel and completes anyway (T17). */
  stubborn?: boolean;
  pollIntervalMs?: number;
}

interface ScriptedTask {
  taskId: string;
  script: TaskScript;
  createdAt: number;
  inputKey: string;
  answeredAt?: number;
  cancelledAt?: number;
  /** tasks/update requests carrying the input key, and answers applied. */
  updatesWithKey: number;
  applied: number;
}

interface Listen {
  end: FakeServerEnd;
  id: number | string;
  taskIds: Set<string>;
  last: Map<string, string>;
}

const iso = (t: number) => new Date(BASE + t).toISOString();

export class ScriptedServer {
  running = true;
  generation = 1;
  readonly #clock: SimulatedClock;
  readonly tasks = new Map<string, ScriptedTask>();
  readonly ends = new Set<FakeServerEnd>();
  /** Every request that reached the server: when, which, about what. */
  readonly requests: { at: number; method: string; id: number | string; taskId?: string }[] = [];
  #listens: Listen[] = [];
  #next = 1;

  constructor(clock: SimulatedClock) {
    this.#clock = clock;
    const tick = () => {
      this.#push();
      clock.setTimeout(tick, 250);
    };
    clock.setTimeout(tick, 250);
  }

  /** Creates a task now, as a tools/call would, and returns its CreateTaskResult (T7, T8). */
  create(script: TaskScript): CreateTaskResult {
    const taskId = `task-${this.generation}-${this.#next++}`;
    const task: ScriptedTask = {
      taskId,
      script,
      createdAt: this.#clock.now(),
      inputKey: `${taskId}-q1`,
      updatesWithKey: 0,
      applied: 0,
    };
    this.tasks.set(taskId, task);
    const { inputRequests: _, result: __, ...handle } = this.#view(task);
    return { resultType: 'task', ...handle };
  }

  async connect(): Promise<FakeServerEnd> {
    if (!this.running) throw new Error('server worker is not running');
    const end = new FakeServerEnd();
    end.onreceive = (message) => this.#handle(end, message);
    this.ends.add(end);
    return end;
  }

  /** Kills the server: every link breaks and, in memory, every task is forgotten. */
  kill(): void {
    this.running = false;
    for (const end of this.ends) end.close('server worker killed');
    this.ends.clear();
    this.#listens = [];
    this.tasks.clear();
  }

  restart(): void {
    this.kill();
    this.running = true;
    this.generation++;
  }

  /** The status the script gives a task now. */
  status(task: ScriptedTask): { status: TaskStatus; since: number } {
    const now = this.#clock.now();
    const { script } = task;
    if (task.cancelledAt !== undefined) return { status: 'cancelled', since: task.cancelledAt };
    const askAt =
      script.inputAfterMs === undefined ? undefined : task.createdAt + script.inputAfterMs;
    if (askAt !== undefined && task.answeredAt === undefined)
      return now < askAt
        ? { status: 'working', since: task.createdAt }
        : { status: 'input_required', since: askAt };
    const from = task.answeredAt ?? task.createdAt;
    const doneAt = from + script.workMs;
    return now < doneAt
      ? { status: 'working', since: from }
      : { status: 'completed', since: doneAt };
  }

  #view(task: ScriptedTask): DetailedTask {
    const { status, since } = this.status(task);
    return {
      taskId: task.taskId,
      status,
      createdAt: iso(task.createdAt),
      lastUpdatedAt: iso(since),
      ttlMs: null,
      pollIntervalMs: task.script.pollIntervalMs ?? 500,
      ...(status === 'input_required'
        ? {
            inputRequests: {
              [task.inputKey]: {
                method: 'elicitation/create',
                params: {
                  mode: 'form',
                  message: 'Go on?',
                  requestedSchema: { type: 'object', properties: {} },
                },
              },
            },
          }
        : {}),
      ...(status === 'completed'
        ? { result: { content: [{ type: 'text', text: `done ${task.taskId}` }] } }
        : {}),
    };
  }

  #handle(end: FakeServerEnd, data: unknown): void {
    const message = data as {
      id?: number | string;
      method?: string;
      params?: Record<string, unknown>;
    };
    if (message.method === 'notifications/cancelled') {
      this.#listens = this.#listens.filter(
        (l) => !(l.end === end && l.id === message.params?.['requestId']),
      );
      return;
    }
    if (message.id === undefined || message.method === undefined) return;
    const { id, method } = message;
    const params = message.params ?? {};
    const taskId = typeof params['taskId'] === 'string' ? params['taskId'] : undefined;
    this.requests.push({ at: this.#clock.now(), method, id, ...(taskId ? { taskId } : {}) });
    const reply = (result: Record<string, unknown>) => end.reply({ jsonrpc: '2.0', id, result });
    const fail = (code: number, text: string) =>
      end.reply({ jsonrpc: '2.0', id, error: { code, message: text } });
    if (method === 'subscriptions/listen') {
      const wanted = (params['notifications'] as { taskIds?: string[] } | undefined)?.taskIds ?? [];
      const agreed = wanted.filter((t) => this.tasks.has(t));
      const listen: Listen = { end, id, taskIds: new Set(agreed), last: new Map() };
      this.#listens.push(listen);
      end.reply({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: { taskIds: agreed },
          _meta: { 'io.modelcontextprotocol/subscriptionId': id },
        },
      });
      return;
    }
    const task = taskId === undefined ? undefined : this.tasks.get(taskId);
    if (!task) {
      fail(-32602, `Unknown task: ${taskId ?? '(none)'}`);
      return;
    }
    switch (method) {
      case 'tasks/get':
        reply({ resultType: 'complete', ...this.#view(task) });
        return;
      case 'tasks/update': {
        const responses = (params['inputResponses'] ?? {}) as Record<string, unknown>;
        if (task.inputKey in responses) {
          task.updatesWithKey++;
          // T15: answers for already answered keys are ignored.
          if (task.answeredAt === undefined && this.status(task).status === 'input_required') {
            task.answeredAt = this.#clock.now();
            task.applied++;
          }
        }
        reply({ resultType: 'complete' });
        this.#push();
        return;
      }
      case 'tasks/cancel':
        if (
          !task.script.stubborn &&
          !['completed', 'failed', 'cancelled'].includes(this.status(task).status)
        )
          task.cancelledAt = this.#clock.now();
        reply({ resultType: 'complete' });
        this.#push();
        return;
      default:
        fail(-32601, `Method not found: ${method}`);
    }
  }

  /** T18: each listen gets the full task after every change. */
  #push(): void {
    for (const listen of this.#listens) {
      if (listen.end.closed) continue;
      for (const taskId of listen.taskIds) {
        const task = this.tasks.get(taskId);
        if (!task) continue;
        const view = this.#view(task);
        const key = `${view.status}@${view.lastUpdatedAt}`;
        if (listen.last.get(taskId) === key) continue;
        listen.last.set(taskId, key);
        listen.end.reply({
          jsonrpc: '2.0',
          method: 'notifications/tasks',
          params: { ...view, _meta: { 'io.modelcontextprotocol/subscriptionId': listen.id } },
        });
      }
    }
  }
}
