/**
 * The recorder: listens to the page session from load and keeps what the
 * views were told, as run events, so "Save run" can build a {@link RunFile}
 * at any moment. Memory is bounded: the newest `limit` events are kept
 * (100,000 by default, about 30 MB of JSON for ordinary traffic); older
 * ones are dropped a tenth at a time, and the file says how many with a
 * `dropped` event first.
 *
 * What comes per message or per step (wire entries, packet updates, task
 * steps) is kept as it is, never copied: those values are never changed
 * once told (messages are immutable after send). Rarer values that the
 * session may change later are copied (`plain`).
 *
 * Tool calls and their answers are read off the wire (a `tools/call`
 * request, the response with its id), so the page's own calls, scenario
 * calls and raw requests are all recorded the same way. A task's machine
 * steps come from `watchSteps`, which the page gives (the history view's
 * recorder, which lives with the views).
 */
import type { WireEntry } from '../client/rpc-client.ts';
import type { TaskActor } from '../client/task-follower.ts';
import type { FaultRule } from '../net/fault-rules.ts';
import { TASKS_EXTENSION } from '../protocol/constants.ts';
import { parseMessage } from '../protocol/jsonrpc.ts';
import type { PageSession } from '../session/page-session.ts';
import { taskIdOf } from '../session/followed-tasks.ts';
import type { RunEvent, RunEventBody, RunTaskStep } from './run-events.ts';
import type { RunFile } from './run-file.ts';
import { RUN_FORMAT, RUN_VERSION } from './run-format.ts';
import type { RunSetup } from './run-setup.ts';

/** Events kept by default. */
export const DEFAULT_EVENT_LIMIT = 100_000;

/** An event before the run gives it `at`: the page-clock time it happened instead. */
type Pending = { time: number; event: RunEventBody };

export interface RunRecorderOptions {
  appVersion: string;
  /** The setup as recording begins (after an address's setup was applied). */
  setup: RunSetup;
  /** The page's clock, epoch ms; the session's scheduler by default. */
  now?: () => number;
  limit?: number;
  /** Calls `onStep` with each step `actor` takes (its first step too); returns the stop. */
  watchSteps?: (actor: TaskActor, onStep: (step: RunTaskStep) => void) => () => void;
}

/** A value as JSON gives it back: nothing read-only, `undefined` fields left out. */
type Plain<T> = T extends readonly (infer U)[]
  ? Plain<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Plain<T[K]> }
    : T;

/** A copy of `value` as JSON keeps it (the session's values are read-only, and may change later). */
function plain<T>(value: T): Plain<T> {
  return JSON.parse(JSON.stringify(value)) as Plain<T>;
}

function copyRules(rules: readonly FaultRule[]): FaultRule[] {
  return rules.map((rule) => plain(rule));
}

export class RunRecorder {
  readonly #options: RunRecorderOptions;
  readonly #limit: number;
  readonly #now: () => number;
  readonly #session: PageSession;
  /**
   * The events kept, oldest first, in chunks of a tenth of the limit: the
   * oldest chunk goes whole when the limit is passed. One array cut down by
   * a tenth copied the other nine tenths each time (90,000 events every
   * 10,000 at the default limit).
   */
  readonly #chunks: Pending[][] = [[]];
  readonly #chunkSize: number;
  #size = 0;
  /** The newest event's time: a clock that steps back (a simulated one reset) must not break the file's order. */
  #lastTime = -Infinity;
  #dropped = 0;
  readonly #stops: (() => void)[] = [];
  /** `tools/call` request ids on the page's wire -> the round's number. */
  readonly #calls = new Map<string, number>();
  #nextCall = 1;
  #store: string | undefined;

  constructor(session: PageSession, options: RunRecorderOptions) {
    this.#session = session;
    this.#options = options;
    this.#limit = Math.max(10, options.limit ?? DEFAULT_EVENT_LIMIT);
    this.#chunkSize = Math.ceil(this.#limit / 10);
    this.#now = options.now ?? (() => session.network.scheduler.now());
    const on = session.on.bind(session);
    this.#stops.push(
      on('wire', (entry) => this.#wire(entry)),
      on('wire-restored', (entries) =>
        this.#add({ kind: 'wire-restored', entries: plain([...entries]) }),
      ),
      on('wire-cleared', () => this.#add({ kind: 'wire-cleared' })),
      on('reset', () => this.#add({ kind: 'reset' })),
      // Per message: kept as they are (a PacketUpdate is never changed after it is told).
      on('packet', (update) => this.#add({ kind: 'packet', update })),
      on('fault', (notice) =>
        this.#add({ kind: 'fault', notice: plain({ ...notice, taskIds: [...notice.taskIds] }) }),
      ),
      on('connection', (status) => this.#add({ kind: 'connection', status: plain(status) })),
      on('server', (status) => this.#add({ kind: 'server', status: plain(status) })),
      on('declareTasks', (on) => this.#add({ kind: 'declare-tasks', on })),
      on('push', (status) => this.#add({ kind: 'push', status: plain(status) })),
      on('storage', ({ serverStore }) => {
        const text = JSON.stringify(serverStore);
        if (text === this.#store) return;
        this.#store = text;
        this.#add({ kind: 'server-store', status: plain(serverStore) });
      }),
      on('followed', ({ actor, restored }) => this.#followed(actor, restored)),
      on('xray', ({ taskId }) => this.#xray(taskId)),
      session.network.log.subscribe((event) =>
        this.#add({ kind: 'fault-log', event: plain(event) }),
      ),
      session.network.onRulesChanged(() =>
        this.#add({ kind: 'rules', rules: copyRules(session.network.rules.rules) }),
      ),
    );
  }

  /** Events held now (at most the limit). */
  get size(): number {
    return this.#size;
  }

  /** Older events dropped so far to stay within the limit. */
  get dropped(): number {
    return this.#dropped;
  }

  stop(): void {
    for (const stop of this.#stops.splice(0)) stop();
  }

  /** The run so far. */
  run(): RunFile {
    const kept = this.#chunks.flat();
    const first = kept[0]?.time ?? this.#now();
    const events: RunEvent[] = kept.map(
      ({ time, event }) => ({ at: Math.max(0, time - first), ...event }) as RunEvent,
    );
    if (this.#dropped > 0) events.unshift({ at: 0, kind: 'dropped', count: this.#dropped });
    return {
      format: RUN_FORMAT,
      version: RUN_VERSION,
      app: { version: this.#options.appVersion },
      recordedAt: new Date(first).toISOString(),
      setup: this.#options.setup,
      events,
    };
  }

  #add(event: RunEventBody): void {
    const time = Math.max(this.#lastTime, this.#now());
    this.#lastTime = time;
    let chunk = this.#chunks[this.#chunks.length - 1]!;
    if (chunk.length >= this.#chunkSize) this.#chunks.push((chunk = []));
    chunk.push({ time, event });
    this.#size++;
    if (this.#size > this.#limit) {
      // Every chunk but the newest is full: the oldest tenth goes.
      const oldest = this.#chunks.shift()!;
      this.#size -= oldest.length;
      this.#dropped += oldest.length;
    }
  }

  #wire(entry: WireEntry): void {
    // Kept as it is: an entry and its message are never changed once logged (a later fact about
    // it is a PacketUpdate), and a copy of every message cost a deep copy per message.
    this.#add({ kind: 'wire', entry });
    const parsed = parseMessage(entry.message);
    const key = (id: unknown) => `${entry.connection ?? ''}:${String(id)}`;
    if (entry.direction === 'out' && parsed.kind === 'request') {
      const { id, method, params } = parsed.message;
      if (method !== 'tools/call' || entry.net?.lost) return;
      const call = this.#nextCall++;
      this.#calls.set(key(id), call);
      const meta = params?.['_meta'];
      this.#add({
        kind: 'tool-call',
        call,
        request: plain({
          name: typeof params?.['name'] === 'string' ? params['name'] : '',
          arguments: record(params?.['arguments']),
          tasks: JSON.stringify(meta ?? {}).includes(TASKS_EXTENSION),
          inputResponses:
            params?.['inputResponses'] === undefined ? undefined : record(params['inputResponses']),
          requestState:
            typeof params?.['requestState'] === 'string' ? params['requestState'] : undefined,
        }),
      });
      return;
    }
    if (entry.direction !== 'in' || entry.net?.lost) return;
    if (parsed.kind !== 'result' && parsed.kind !== 'error') return;
    const call = this.#calls.get(key(parsed.message.id));
    if (call === undefined) return;
    this.#calls.delete(key(parsed.message.id));
    if (parsed.kind === 'error') {
      const { code, message, data } = parsed.message.error;
      this.#add({
        kind: 'tool-answer',
        call,
        answer: { kind: 'error', error: plain({ kind: 'rpc', code, message, data }) },
      });
      return;
    }
    const result = parsed.message.result;
    const taskId = result['taskId'];
    this.#add({
      kind: 'tool-answer',
      call,
      answer:
        result['resultType'] === 'task' && typeof taskId === 'string'
          ? { kind: 'task', task: plain({ ...result, taskId }) }
          : result['resultType'] === 'input_required'
            ? plain({
                kind: 'input_required' as const,
                inputRequests: record(result['inputRequests']),
                requestState:
                  typeof result['requestState'] === 'string' ? result['requestState'] : undefined,
              })
            : { kind: 'result', result: plain(result) },
    });
  }

  #followed(actor: TaskActor, restored: boolean): void {
    const taskId = taskIdOf(actor);
    const tool = actor.getSnapshot().context.toolName;
    this.#add({
      kind: 'task-followed',
      taskId,
      tool: typeof tool === 'string' ? tool : '',
      restored,
    });
    const watch = this.#options.watchSteps;
    if (!watch) return;
    let finished = false;
    const stop = watch(actor, (step) => {
      // The step as recorded: never changed once taken, shared with the history view.
      this.#add({ kind: 'task-step', taskId, step });
      // A final state's value is its name: the actor takes no more steps.
      finished ||= typeof step.value === 'string';
    });
    if (finished) stop();
    else this.#stops.push(stop);
  }

  #xray(taskId: string | undefined): void {
    const ids = taskId === undefined ? this.#session.tasks.map(taskIdOf) : [taskId];
    for (const id of ids)
      this.#add({ kind: 'xray', taskId: id, reading: plain(this.#session.xray.reading(id)) });
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? plain(value as Record<string, unknown>)
    : {};
}
