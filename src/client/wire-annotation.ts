/**
 * Turns raw wire entries into log rows a learner can scan: which method a
 * response answers (responses carry only an id), which task a message is
 * about, and a one-word gist (a task's status, an error code).
 */
import { parseMessage } from '../protocol/jsonrpc.ts';
import type { WireDirection, WireEntry } from './rpc-client.ts';

export type WireKind = 'request' | 'notification' | 'result' | 'error' | 'invalid';

/** One wire log row. `message` is the exact object that crossed the link. */
export interface WireRow {
  seq: number;
  at: number;
  direction: WireDirection;
  kind: WireKind;
  /** The request's method; for a response, the method of the request it answers. */
  method: string | undefined;
  id: string | number | null | undefined;
  taskId: string | undefined;
  /** A short gist: `task working`, `input_required`, `error -32021`... */
  gist: string;
  reissueOf: string | number | undefined;
  message: unknown;
  /** Lower-cased text the filter box matches against. */
  search: string;
}

const opposite = (direction: WireDirection): WireDirection => (direction === 'out' ? 'in' : 'out');

function stringField(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' ? value : undefined;
}

function resultGist(result: Record<string, unknown>): string {
  const resultType = stringField(result, 'resultType');
  const status = stringField(result, 'status');
  if (resultType === 'task') return `task ${status ?? ''}`.trim();
  if (status) return status;
  if (result['isError'] === true) return 'isError';
  return resultType ?? 'complete';
}

/** Annotates entries in order; remembers request methods by direction and id. */
export class WireAnnotator {
  /** What each request was, by `direction:id`, so its response can say what it answers. */
  readonly #requests = new Map<string, { method: string; taskId: string | undefined }>();

  #answered(direction: WireDirection, id: string | number | null): { method: string; taskId: string | undefined } | undefined {
    if (id === null) return undefined;
    const key = `${opposite(direction)}:${id}`;
    const request = this.#requests.get(key);
    this.#requests.delete(key); // Answered once; keeps the map as small as what is in flight.
    return request;
  }

  annotate(entry: WireEntry): WireRow {
    const parsed = parseMessage(entry.message);
    const base = { seq: entry.seq, at: entry.at, direction: entry.direction, reissueOf: entry.reissueOf, message: entry.message };
    let row: Omit<WireRow, 'search'>;
    switch (parsed.kind) {
      case 'request': {
        const { id, method, params } = parsed.message;
        const taskId = stringField(params, 'taskId');
        this.#requests.set(`${entry.direction}:${id}`, { method, taskId });
        row = { ...base, kind: 'request', method, id, taskId, gist: stringField(params, 'name') ?? '' };
        break;
      }
      case 'notification': {
        const { method, params } = parsed.message;
        row = { ...base, kind: 'notification', method, id: undefined, taskId: stringField(params, 'taskId'), gist: stringField(params, 'status') ?? '' };
        break;
      }
      case 'result': {
        const { id, result } = parsed.message;
        const request = this.#answered(entry.direction, id);
        const taskId = stringField(result, 'taskId') ?? request?.taskId;
        row = { ...base, kind: 'result', method: request?.method, id, taskId, gist: resultGist(result) };
        break;
      }
      case 'error': {
        const { id, error } = parsed.message;
        const request = this.#answered(entry.direction, id);
        row = { ...base, kind: 'error', method: request?.method, id, taskId: request?.taskId, gist: `error ${error.code}` };
        break;
      }
      case 'invalid':
        row = { ...base, kind: 'invalid', method: undefined, id: undefined, taskId: undefined, gist: 'invalid' };
        break;
    }
    const search = [row.method, row.id, row.taskId, row.gist, row.kind].filter((part) => part !== undefined && part !== null).join(' ').toLowerCase();
    return { ...row, search };
  }
}
