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

export class ToolCalls {
  #records = $state.raw<readonly CallRecord[]>([]);
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

  /** Newest first. */
  get records(): readonly CallRecord[] {
    return this.#records;
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
    this.#records = [record, ...this.#records];
    return this.#round(record.id, undefined, undefined);
  }

  /** Answers one input request of a call; the call is retried once all are answered (T16). */
  answer(callId: number, key: string, response: ElicitResult): void {
    const record = this.#records.find((r) => r.id === callId);
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
    this.#records = [];
  }

  dismiss(callId: number): void {
    this.#records = this.#records.filter((r) => r.id !== callId);
  }

  async #round(
    callId: number,
    inputResponses: Record<string, unknown> | undefined,
    requestState: string | undefined,
  ): Promise<CallOutcome> {
    const record = this.#records.find((r) => r.id === callId);
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

  /** Changes one record; returns its outcome as it now stands. */
  #set(callId: number, patch: Partial<Pick<CallRecord, 'rounds' | 'outcome'>>): CallOutcome {
    this.#records = this.#records.map((r) => (r.id === callId ? { ...r, ...patch } : r));
    return this.#records.find((r) => r.id === callId)?.outcome ?? { kind: 'pending' };
  }
}
