/**
 * Turns raw wire entries into log rows a learner can scan: which method a
 * response answers (responses carry only an id), which task a message is
 * about, and a one-word gist (a task's status, an error code).
 *
 * Work per message, once: an entry (never changed once logged) is annotated
 * once per annotator, however many readers ask (the page's task news and
 * its wire log share one); the row's text for the filter box is made only
 * when a filter first reads it ({@link searchText}), then kept with the row.
 */
import type { HttpFacts } from '../protocol/http-facts.ts';
import { parseMessage } from '../protocol/jsonrpc.ts';
import { TaskStatusSchema, type TaskStatus } from '../protocol/task.ts';
import type { NetMark, PacketUpdate } from '../net/net-marks.ts';
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
  /** The task status the message carries (a result's or a notification's `status`, T6), if it is one. */
  status: TaskStatus | undefined;
  /** A result's `resultType` (C4): `task`, `input_required`, `complete`. */
  resultType: string | undefined;
  reissueOf: string | number | undefined;
  /** Why it was re-issued: the link broke (C8) or its answer timed out. */
  reissueReason: 'link' | 'timeout' | undefined;
  /** What the fault-injecting network did to it; updated when a sent message arrives or is lost in flight. */
  net: NetMark | undefined;
  /** What HTTP said about the exchange that brought it (a remote server's answer): status, `Mcp-*` headers. */
  http: HttpFacts | undefined;
  message: unknown;
  /** The client it belongs to, when not the page's own (a second connection, another identity). */
  connection: string | undefined;
  /** The server node behind a balancer that sent it or was sent it (1 to 5); a sent one learns it on delivery. */
  node: number | undefined;
}

const opposite = (direction: WireDirection): WireDirection => (direction === 'out' ? 'in' : 'out');

function statusField(record: Record<string, unknown> | undefined): TaskStatus | undefined {
  const parsed = TaskStatusSchema.safeParse(record?.['status']);
  return parsed.success ? parsed.data : undefined;
}

function stringField(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** Methods whose successful answer only acknowledges the request; it says nothing of the task's status. */
const ACKNOWLEDGING = new Set(['tasks/update', 'tasks/cancel']);

function resultGist(result: Record<string, unknown>, method: string | undefined): string {
  const resultType = stringField(result, 'resultType');
  // `complete` here would read as "the task completed"; the ack means only "received" (T14, T17).
  if (
    method !== undefined &&
    ACKNOWLEDGING.has(method) &&
    resultType === 'complete' &&
    stringField(result, 'status') === undefined
  )
    return 'ack';
  const status = stringField(result, 'status');
  if (resultType === 'task') return `task ${status ?? ''}`.trim();
  if (status) return status;
  if (result['isError'] === true) return 'isError';
  return resultType ?? 'complete';
}

/** Annotates entries in order; remembers request methods by direction and id. */
export class WireAnnotator {
  /** What each request was, by `connection|direction:id`, so its response can say what it answers (each client counts ids from 1). */
  readonly #requests = new Map<
    string,
    { method: string; taskId: string | undefined; answers: number }
  >();

  /** Requests one copy of a two-copy (duplicated) response has named: the other copy names them too, then they go. */
  readonly #firstCopies = new Set<string>();

  /** The row of each entry annotated so far: asked again, the same row, and no request counted twice. */
  readonly #rows = new WeakMap<WireEntry, WireRow>();

  #answered(
    connection: string | undefined,
    direction: WireDirection,
    id: string | number | null,
    mark: NetMark | undefined,
  ): { method: string; taskId: string | undefined } | undefined {
    if (id === null) return undefined;
    const key = `${connection ?? ''}|${opposite(direction)}:${id}`;
    const request = this.#requests.get(key);
    if (!request) return undefined;
    // A lost answer leaves room for the one that counts.
    if (mark?.lost !== undefined) return request;
    // The two copies of a duplicated answer arrive in either order: the request is spent only when both have named it.
    if (mark?.duplicated || mark?.duplicate) {
      if (!this.#firstCopies.has(key)) {
        this.#firstCopies.add(key);
        return request;
      }
      this.#firstCopies.delete(key);
    }
    // Answered; keeps the map as small as what is in flight. A request the
    // network delivered twice is answered twice by the server.
    if (--request.answers <= 0) this.#requests.delete(key);
    return request;
  }

  /** The row of `entry`; entries must come in the order they crossed the link (a response after its request). */
  annotate(entry: WireEntry): WireRow {
    let row = this.#rows.get(entry);
    if (!row) this.#rows.set(entry, (row = this.#annotate(entry)));
    return row;
  }

  #annotate(entry: WireEntry): WireRow {
    const parsed = parseMessage(entry.message);
    const base = {
      seq: entry.seq,
      at: entry.at,
      direction: entry.direction,
      reissueOf: entry.reissueOf,
      reissueReason: entry.reissueReason,
      net: entry.net,
      http: entry.http,
      message: entry.message,
      connection: entry.connection,
      node: entry.node,
    };
    let row: WireRow;
    switch (parsed.kind) {
      case 'request': {
        const { id, method, params } = parsed.message;
        const taskId = stringField(params, 'taskId');
        this.#requests.set(`${entry.connection ?? ''}|${entry.direction}:${id}`, {
          method,
          taskId,
          answers: entry.net?.duplicated ? 2 : 1,
        });
        row = {
          ...base,
          kind: 'request',
          method,
          id,
          taskId,
          gist: stringField(params, 'name') ?? '',
          status: undefined,
          resultType: undefined,
        };
        break;
      }
      case 'notification': {
        const { method, params } = parsed.message;
        row = {
          ...base,
          kind: 'notification',
          method,
          id: undefined,
          taskId: stringField(params, 'taskId'),
          gist: stringField(params, 'status') ?? '',
          status: statusField(params),
          resultType: undefined,
        };
        break;
      }
      case 'result': {
        const { id, result } = parsed.message;
        const request = this.#answered(entry.connection, entry.direction, id, entry.net);
        const taskId = stringField(result, 'taskId') ?? request?.taskId;
        row = {
          ...base,
          kind: 'result',
          method: request?.method,
          id,
          taskId,
          gist: resultGist(result, request?.method),
          status: statusField(result),
          resultType: stringField(result, 'resultType'),
        };
        break;
      }
      case 'error': {
        const { id, error } = parsed.message;
        const request = this.#answered(entry.connection, entry.direction, id, entry.net);
        row = {
          ...base,
          kind: 'error',
          method: request?.method,
          id,
          taskId: request?.taskId,
          gist: `error ${error.code}`,
          status: undefined,
          resultType: undefined,
        };
        break;
      }
      case 'invalid':
        row = {
          ...base,
          kind: 'invalid',
          method: undefined,
          id: undefined,
          taskId: undefined,
          gist: 'invalid',
          status: undefined,
          resultType: undefined,
        };
        break;
    }
    return row;
  }
}

/** Words the network's marks add to a row: `lost`, `delayed`, `duplicated`, `reordered`, `reissued`. */
export function netWords(row: Pick<WireRow, 'net' | 'reissueOf'>): string[] {
  const net = row.net;
  const words: string[] = [];
  if (net?.lost) words.push('lost');
  if (net && net.delayMs > 0) words.push('delayed');
  if (net?.duplicated || net?.duplicate) words.push('duplicated');
  if (net?.reordered) words.push('reordered');
  if (net?.rule) words.push('rule');
  if (row.reissueOf !== undefined) words.push('reissued');
  return words;
}

/** Each row's filter text, made on first read: rows are never changed (an update is a new row). */
const searchTexts = new WeakMap<WireRow, string>();

/** The lower-cased text the filter box matches a row against: method, id, taskId, gist, kind, connection, node, network marks. */
export function searchText(row: WireRow): string {
  let text = searchTexts.get(row);
  if (text === undefined) searchTexts.set(row, (text = textOf(row)));
  return text;
}

function textOf(row: WireRow): string {
  return [
    row.method,
    row.id,
    row.taskId,
    row.gist,
    row.kind,
    row.connection,
    row.node === undefined ? undefined : `node ${row.node}`,
    ...netWords(row),
  ]
    .filter((part) => part !== undefined && part !== null)
    .join(' ')
    .toLowerCase();
}

/** The row after a later fact about the message it shows (it arrived, or was lost in flight). */
export function withPacketUpdate(row: WireRow, update: PacketUpdate): WireRow {
  if (!row.net || row.net.packet !== update.packet) return row;
  if (update.node !== undefined && update.deliveredAt === undefined && !update.lost)
    return { ...row, node: update.node };
  const net: NetMark = {
    ...row.net,
    ...(update.deliveredAt !== undefined ? { deliveredAt: update.deliveredAt } : {}),
    ...(update.reordered ? { reordered: true } : {}),
    ...(update.lost ? { lost: update.lost } : {}),
    ...(update.rule ? { rule: update.rule } : {}),
  };
  return { ...row, net };
}
