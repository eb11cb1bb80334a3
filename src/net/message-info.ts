/**
 * What the network can tell about a message it carries, for fault rules and
 * fault events: its JSON-RPC kind, the method (for a response, the method of
 * the request it answers), the taskId it is about, and a task status in it.
 */
import { parseMessage } from '../protocol/jsonrpc.ts';
import type { LinkDirection } from './link-conditions.ts';

const other = (direction: LinkDirection): LinkDirection => (direction === 'out' ? 'in' : 'out');

export type MessageKind = 'request' | 'notification' | 'result' | 'error' | 'invalid';

export interface MessageInfo {
  kind: MessageKind;
  method?: string;
  id?: string | number | null;
  taskId?: string;
  /** `status` of a task in the result or params (`working`, `input_required`...). */
  status?: string;
  /** `resultType` of a result (`task` for a CreateTaskResult, C4, T7). */
  resultType?: string;
}

/** Requests remembered per link (both directions together), the oldest forgotten first. */
const MAX_REMEMBERED = 1000;

function text(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A request id as a Map key, such that two ids share a key exactly when they
 * read the same as text (`1` and `"1"`, as a response may echo it): a number
 * is its own key, and so is a string that no number reads as.
 */
function keyOf(id: string | number): string | number {
  if (typeof id === 'number') return id;
  const number = Number(id);
  return String(number) === id ? number : id;
}

interface Remembered {
  method: string;
  taskId: string | undefined;
}

/**
 * Describes messages on one link, remembering requests so responses can name their method.
 * Runs on every message the network carries: no key strings built, no objects but the answer.
 */
export class MessageTracker {
  /** Requests by id ({@link keyOf}), per direction they were sent in (both ends number their own). */
  readonly #requests: Record<LinkDirection, Map<string | number, Remembered>> = {
    out: new Map(),
    in: new Map(),
  };
  /** Which request each slot remembers, oldest first from `#oldest`: a ring of `MAX_REMEMBERED`. */
  readonly #order: { requests: Map<string | number, Remembered>; key: string | number }[] = [];
  #oldest = 0;

  describe(direction: LinkDirection, message: unknown): MessageInfo {
    const parsed = parseMessage(message);
    switch (parsed.kind) {
      case 'request': {
        const { id, method, params } = parsed.message;
        const taskId = text(params, 'taskId');
        this.#remember(this.#requests[direction], keyOf(id), { method, taskId });
        const info: MessageInfo = { kind: 'request', method, id };
        if (taskId) info.taskId = taskId;
        return info;
      }
      case 'notification': {
        const { method, params } = parsed.message;
        const taskId = text(params, 'taskId');
        const status = text(params, 'status');
        const info: MessageInfo = { kind: 'notification', method };
        if (taskId) info.taskId = taskId;
        if (status) info.status = status;
        return info;
      }
      case 'result': {
        const { id, result } = parsed.message;
        // Not forgotten on first sight: a duplicated response must still name its method.
        const request = this.#requests[other(direction)].get(keyOf(id));
        const taskId = text(result, 'taskId') ?? request?.taskId;
        const status = text(result, 'status');
        const resultType = text(result, 'resultType');
        const info: MessageInfo = { kind: 'result', id };
        if (request) info.method = request.method;
        if (taskId) info.taskId = taskId;
        if (status) info.status = status;
        if (resultType) info.resultType = resultType;
        return info;
      }
      case 'error': {
        const { id } = parsed.message;
        const request = id === null ? undefined : this.#requests[other(direction)].get(keyOf(id));
        const info: MessageInfo = { kind: 'error', id };
        if (request) info.method = request.method;
        if (request?.taskId) info.taskId = request.taskId;
        return info;
      }
      case 'invalid':
        return { kind: 'invalid' };
    }
  }

  #remember(
    requests: Map<string | number, Remembered>,
    key: string | number,
    value: Remembered,
  ): void {
    // A request id seen again keeps its place among the remembered (a Map keeps first insertion).
    const known = requests.has(key);
    requests.set(key, value);
    if (known) return;
    if (this.#order.length < MAX_REMEMBERED) {
      this.#order.push({ requests, key });
      return;
    }
    // Full: the oldest slot is forgotten and reused for this one.
    const oldest = this.#order[this.#oldest]!;
    oldest.requests.delete(oldest.key);
    oldest.requests = requests;
    oldest.key = key;
    this.#oldest = (this.#oldest + 1) % MAX_REMEMBERED;
  }
}
