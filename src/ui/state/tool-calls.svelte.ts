/**
 * The "results" area: every `tools/call` the learner made and how it ended,
 * newest first. A task handle is followed by the session (T7); input asked
 * before a task exists is answered here and the call retried (T16).
 */
import type { CallError } from '../../client/rpc-error.ts';
import type { ToolCallOutcome, ToolCallRequest } from '../../client/tool-call.ts';
import type { ElicitResult } from '../../protocol/elicitation.ts';
import type { CallToolResult, InputRequest } from '../../protocol/task.ts';
import { errorMessage } from '../../protocol/error-message.ts';

export type CallOutcome =
  | { kind: 'pending' }
  | {
      kind: 'input';
      requests: Record<string, InputRequest>;
      requestState: string | undefined;
      answers: Record<string, ElicitResult>;
    }
  | { kind: 'task'; taskId: string }
  | { kind: 'result'; result: CallToolResult }
  | { kind: 'error'; error: CallError };

export interface CallRecord {
  readonly id: number;
  readonly toolName: string;
  readonly args: Record<string, unknown>;
  /** Whether this call declared the tasks extension (T1). */
  readonly declared: boolean;
  readonly startedAt: number;
  /** tools/call requests sent for this call: more than one after input_required (T16). */
  readonly rounds: number;
  readonly outcome: CallOutcome;
}

/** Anything a rejected call may carry, as a CallError (matched by shape, not class). */
export function toCallError(error: unknown): CallError {
  if (typeof error === 'object' && error !== null && 'kind' in error && 'message' in error) {
    const kind = (error as { kind: unknown }).kind;
    if (kind === 'rpc' || kind === 'invalid-response' || kind === 'closed')
      return error as CallError;
  }
  return {
    kind: 'invalid-response',
    message: errorMessage(error),
  };
}

/** Calls the Results list draws at first, newest first: a burst of a thousand draws these only. */
export const NEWEST_DRAWN = 20;
/** How many more calls each "Show earlier" draws. */
export const EARLIER_STEP = 100;

/** A drawn call and where it stands among all of them (1 = newest). */
export interface PlacedCall {
  readonly record: CallRecord;
  readonly position: number;
}

/**
 * Every call, kept so that a burst of N calls costs O(N) overall: a call is
 * appended, an answer replaces its one record, and what the Results list
 * draws (`window`) is read from the newest end, never by walking every call.
 * Records are immutable: a change is a new record in the same place.
 */
export class ToolCalls {
  /** Oldest first; a change replaces one entry. */
  #calls: CallRecord[] = [];
  /** Where each call's id sits in `#calls` (rebuilt only when a call is dismissed). */
  #indexOf = new Map<number, number>();
  /** Calls asking for input before a task exists (T16): few, and drawn wherever they are. */
  #askingIds = new Set<number>();
  /** Bumped on every change: what readers depend on, instead of a copied array. */
  #version = $state(0);
  readonly #callTool: (request: ToolCallRequest) => Promise<ToolCallOutcome>;
  readonly #now: () => number;
  #nextId = 1;

  /**
   * `callTool` makes one round; a task handle it returns is already followed (the page session
   * does it). `now` is the page's world time, the clock the wire rows and a scenario's steps keep.
   */
  constructor(
    callTool: (request: ToolCallRequest) => Promise<ToolCallOutcome>,
    now: () => number = () => Date.now(),
  ) {
    this.#callTool = callTool;
    this.#now = now;
  }

  /** How many calls are listed. */
  get count(): number {
    void this.#version;
    return this.#calls.length;
  }

  /** Newest first, every call: a copy (a scenario's observation and tests read it; the page reads `window`). */
  get records(): readonly CallRecord[] {
    void this.#version;
    return this.#calls.toReversed();
  }

  /**
   * What the Results list draws: the newest `newest` calls, newest first,
   * then any older call still asking for input (its form stays in reach,
   * T16). Costs `newest` plus the askers, whatever the number of calls.
   */
  window(newest: number): readonly PlacedCall[] {
    void this.#version;
    const calls = this.#calls;
    const placed: PlacedCall[] = [];
    const last = calls.length - 1;
    const oldestDrawn = Math.max(0, calls.length - newest);
    for (let i = last; i >= oldestDrawn; i--)
      placed.push({ record: calls[i]!, position: last - i + 1 });
    const older = [...this.#askingIds]
      .map((id) => this.#indexOf.get(id)!)
      .filter((i) => i < oldestDrawn)
      .sort((a, b) => b - a);
    for (const i of older) placed.push({ record: calls[i]!, position: last - i + 1 });
    return placed;
  }

  /** Calls a tool, declaring the tasks extension or not (T1, M4); resolves with how its first round ended. */
  call(toolName: string, args: Record<string, unknown>, declared: boolean): Promise<CallOutcome> {
    const record: CallRecord = {
      id: this.#nextId++,
      toolName,
      args,
      declared,
      startedAt: this.#now(),
      rounds: 0,
      outcome: { kind: 'pending' },
    };
    this.#indexOf.set(record.id, this.#calls.length);
    this.#calls.push(record);
    this.#version++;
    return this.#round(record.id, undefined, undefined);
  }

  /** Answers one input request of a call; the call is retried once all are answered (T16). */
  answer(callId: number, key: string, response: ElicitResult): void {
    const record = this.#find(callId);
    if (record?.outcome.kind !== 'input' || !Object.hasOwn(record.outcome.requests, key)) return;
    const { requests, requestState } = record.outcome;
    const answers = { ...record.outcome.answers, [key]: response };
    if (Object.keys(requests).some((k) => !Object.hasOwn(answers, k))) {
      this.#set(callId, { outcome: { kind: 'input', requests, requestState, answers } });
      return;
    }
    void this.#round(callId, answers, requestState);
  }

  /** Forgets every record (a scenario starts clean); answers still on their way are dropped. */
  clear(): void {
    this.#calls = [];
    this.#indexOf = new Map();
    this.#askingIds = new Set();
    this.#version++;
  }

  dismiss(callId: number): void {
    const at = this.#indexOf.get(callId);
    if (at === undefined) return;
    // A click, not a burst: re-indexing the calls after it is fine here.
    this.#calls.splice(at, 1);
    this.#askingIds.delete(callId);
    this.#indexOf = new Map(this.#calls.map((r, i) => [r.id, i]));
    this.#version++;
  }

  #find(callId: number): CallRecord | undefined {
    const at = this.#indexOf.get(callId);
    return at === undefined ? undefined : this.#calls[at];
  }

  async #round(
    callId: number,
    inputResponses: Record<string, unknown> | undefined,
    requestState: string | undefined,
  ): Promise<CallOutcome> {
    const record = this.#find(callId);
    if (!record) return { kind: 'pending' };
    this.#set(callId, { rounds: record.rounds + 1, outcome: { kind: 'pending' } });
    try {
      const outcome = await this.#callTool({
        name: record.toolName,
        arguments: record.args,
        tasks: record.declared,
        ...(inputResponses ? { inputResponses } : {}),
        ...(requestState !== undefined ? { requestState } : {}),
      });
      switch (outcome.kind) {
        case 'task':
          return this.#set(callId, { outcome: { kind: 'task', taskId: outcome.task.taskId } });
        case 'input_required':
          return this.#set(callId, {
            outcome: {
              kind: 'input',
              requests: outcome.inputRequests,
              requestState: outcome.requestState,
              answers: {},
            },
          });
        case 'result':
          return this.#set(callId, { outcome: { kind: 'result', result: outcome.result } });
      }
    } catch (error) {
      return this.#set(callId, { outcome: { kind: 'error', error: toCallError(error) } });
    }
  }

  /** Changes one record (a new record in its place); returns its outcome as it now stands. */
  #set(callId: number, patch: Partial<Pick<CallRecord, 'rounds' | 'outcome'>>): CallOutcome {
    const at = this.#indexOf.get(callId);
    // Dismissed or cleared while its answer was on the way: nothing to change.
    if (at === undefined) return { kind: 'pending' };
    const record = { ...this.#calls[at]!, ...patch };
    this.#calls[at] = record;
    if (record.outcome.kind === 'input') this.#askingIds.add(callId);
    else this.#askingIds.delete(callId);
    this.#version++;
    return record.outcome;
  }
}
