/**
 * What the network can tell about a message it carries, for fault rules and
 * fault events: its JSON-RPC kind, the method (for a response, the method of
 * the request it answers), the taskId it is about, and a task status in it.
 */
import { parseMessage } from '../protocol/jsonrpc.ts';
import type { LinkDirection } from './link-conditions.ts';

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

const MAX_REMEMBERED = 1000;

function text(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' ? value : undefined;
}

const other = (direction: LinkDirection): LinkDirection => (direction === 'out' ? 'in' : 'out');

/** Describes messages on one link, remembering requests so responses can name their method. */
export class MessageTracker {
  readonly #requests = new Map<string, { method: string; taskId: string | undefined }>();

  describe(direction: LinkDirection, message: unknown): MessageInfo {
    const parsed = parseMessage(message);
    switch (parsed.kind) {
      case 'request': {
        const { id, method, params } = parsed.message;
        const taskId = text(params, 'taskId');
        this.#remember(`${direction}:${id}`, { method, taskId });
        return { kind: 'request', method, id, ...(taskId ? { taskId } : {}) };
      }
      case 'notification': {
        const { method, params } = parsed.message;
        const taskId = text(params, 'taskId');
        const status = text(params, 'status');
        return {
          kind: 'notification',
          method,
          ...(taskId ? { taskId } : {}),
          ...(status ? { status } : {}),
        };
      }
      case 'result': {
        const { id, result } = parsed.message;
        // Not forgotten on first sight: a duplicated response must still name its method.
        const request = this.#requests.get(`${other(direction)}:${id}`);
        const taskId = text(result, 'taskId') ?? request?.taskId;
        const status = text(result, 'status');
        const resultType = text(result, 'resultType');
        return {
          kind: 'result',
          id,
          ...(request ? { method: request.method } : {}),
          ...(taskId ? { taskId } : {}),
          ...(status ? { status } : {}),
          ...(resultType ? { resultType } : {}),
        };
      }
      case 'error': {
        const { id } = parsed.message;
        const request = id === null ? undefined : this.#requests.get(`${other(direction)}:${id}`);
        return {
          kind: 'error',
          id,
          ...(request ? { method: request.method } : {}),
          ...(request?.taskId ? { taskId: request.taskId } : {}),
        };
      }
      case 'invalid':
        return { kind: 'invalid' };
    }
  }

  #remember(key: string, value: { method: string; taskId: string | undefined }): void {
    this.#requests.set(key, value);
    if (this.#requests.size > MAX_REMEMBERED) {
      const oldest = this.#requests.keys().next().value;
      if (oldest !== undefined) this.#requests.delete(oldest);
    }
  }
}
