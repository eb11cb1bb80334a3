/**
 * The page's JSON-RPC client: frames every request with the per-request
 * `_meta` envelope (C2), correlates responses by id, validates everything
 * that arrives, and re-issues requests lost to a broken link under new ids
 * (C8: there is no stream resumption). It reconnects on its own, with backoff.
 */
import { Method } from '../protocol/constants.ts';
import { sharedRequestMeta, type ClientInfo, type RequestMeta } from '../protocol/envelope.ts';
import {
  builtRequest,
  parseMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from '../protocol/jsonrpc.ts';
import { realScheduler, type Scheduler } from '../net/scheduler.ts';
import type { MarkSource, NetMark } from '../net/net-marks.ts';
import { httpFactsOf } from '../net/http-facts.ts';
import type { Connector, RequestFailure, Transport } from '../net/transport.ts';
import { LinkMarks } from './link-marks.ts';
import type { WireDirection, WireEntry } from './wire-entry.ts';
import type { CallError } from './rpc-error.ts';
import { StreamTable, type StreamHandle, type StreamOptions } from './rpc-streams.ts';
import { errorMessage } from '../protocol/error-message.ts';

export type { WireDirection, WireEntry } from './wire-entry.ts';

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The facts behind a connection state, so the page can count down from real state. */
export interface ConnectionInfo {
  /** The connect attempt under way or next up since the link was last open (1 = the first retry); 0 while open. */
  attempt: number;
  /** When the next attempt starts, while waiting out a backoff (scheduler time). */
  retryAt?: number;
  /** Why the link is down. */
  reason?: string;
}

export interface RpcClientOptions {
  clientInfo: ClientInfo;
  connect: Connector;
  /** The simulated network the links pass through, whose marks each entry carries (`WireEntry.net`). */
  marks?: MarkSource;
  /** Sees every message in both directions, in order. */
  onWire?: (entry: WireEntry) => void;
  onNotification?: (notification: JsonRpcNotification) => void;
  onConnectionState?: (state: ConnectionState, detail?: string, info?: ConnectionInfo) => void;
  /** Backoff after a failed or broken link: first delay and cap, in ms. */
  backoff?: { initialMs: number; maxMs: number };
  /** Clock and timers (reconnect backoff, request timeouts, wire times); the real ones by default. */
  scheduler?: Scheduler;
  /** Names this client's entries, for a wire log shared with other clients (a second connection, M5). */
  connection?: string;
  /** Numbers entries from a counter shared with other clients, so one log's `seq`s stay unique. */
  nextSeq?: () => number;
}

export interface CallOptions {
  /** Declare the tasks extension on this one request (T1). */
  tasks: boolean;
  /**
   * With no answer after this long on an open link, the request counts as
   * lost and is re-issued under a new id (C8). Only for requests that are
   * safe to repeat (tasks/get, tasks/update, tasks/cancel); none by default.
   */
  timeoutMs?: number;
  /** Told each time the request leaves again (re-issued, C8, or held for a link): pacing counts from then (T12). */
  onResend?: () => void;
}

interface Pending {
  method: string;
  params: Record<string, unknown>;
  tasks: boolean;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: CallError) => void;
  id: number;
  /** The link this request was last written to, if any. */
  sentOn?: Transport;
  timeoutMs?: number;
  timer?: unknown;
  onResend?: () => void;
}

export class RpcClient {
  readonly #options: RpcClientOptions;
  readonly #pending = new Map<number, Pending>();
  #transport: Transport | undefined;
  #state: ConnectionState = 'connecting';
  #nextId = 1;
  #seq = 0;
  #attempt = 0;
  #reconnectTimer: unknown;
  readonly #scheduler: Scheduler;
  readonly #streams = new StreamTable();
  readonly #marks: LinkMarks;
  /** The `_meta` of every request (C2), with and without the tasks extension: made once, shared. */
  readonly #meta: { tasks: RequestMeta; plain: RequestMeta };

  constructor(options: RpcClientOptions) {
    this.#options = options;
    this.#scheduler = options.scheduler ?? realScheduler;
    this.#meta = {
      tasks: sharedRequestMeta(options.clientInfo, { tasks: true }),
      plain: sharedRequestMeta(options.clientInfo, { tasks: false }),
    };
    this.#marks = new LinkMarks(
      options.marks,
      (transport) => transport === this.#transport,
      (message, mark) => this.#log('in', message, undefined, mark),
    );
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Requests sent (or waiting for a link) that have no answer yet. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** Opens the first link. */
  start(): Promise<void> {
    return this.#open();
  }

  /**
   * Sends a request and resolves with its `result`. A JSON-RPC error
   * rejects with `{kind: 'rpc', code, message, data}`.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options: CallOptions,
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        method,
        params,
        tasks: options.tasks,
        resolve,
        reject,
        id: this.#nextId++,
      };
      if (options.timeoutMs !== undefined) pending.timeoutMs = options.timeoutMs;
      this.#pending.set(pending.id, pending);
      this.#send(pending);
      // Set after the first send: only later writes are news to the caller.
      if (options.onResend) pending.onResend = options.onResend;
    });
  }

  /**
   * Opens a notification stream such as `subscriptions/listen` (C9): a
   * request that gets no response while it lasts. It dies with its link and
   * is never re-issued; reopening it is the caller's choice. Throws when no
   * link is open.
   */
  openStream(
    method: string,
    params: Record<string, unknown>,
    options: StreamOptions,
  ): StreamHandle {
    const transport = this.#transport;
    if (this.#state !== 'open' || !transport) throw new Error('not connected');
    const id = this.#nextId++;
    this.#streams.add(id, transport, options);
    this.#write(this.#frame({ id, method, params, tasks: options.tasks }));
    return {
      id,
      close: (reason = 'closed by the client') => {
        if (!this.#streams.remove(id)) return;
        if (this.#transport === transport && this.#state === 'open') {
          this.#write({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason },
          });
        }
      },
    };
  }

  /** Sends any JSON-RPC value as it is, without framing: for experiments with malformed messages. */
  sendRaw(message: unknown): void {
    this.#write(message);
  }

  /** Breaks the current link on purpose; the client reconnects by itself. */
  dropConnection(reason = 'connection dropped'): void {
    this.#transport?.close(reason);
  }

  close(): void {
    this.#setState('closed');
    this.#scheduler.clearTimeout(this.#reconnectTimer);
    this.#transport?.close('client closed');
    for (const pending of this.#pending.values()) {
      this.#scheduler.clearTimeout(pending.timer);
      pending.reject({ kind: 'closed', message: 'client closed' });
    }
    this.#pending.clear();
    this.#streams.end('client closed');
    this.#marks.stop();
  }

  #frame(pending: Pick<Pending, 'id' | 'method' | 'params' | 'tasks'>): JsonRpcRequest {
    return builtRequest({
      jsonrpc: '2.0',
      id: pending.id,
      method: pending.method,
      params: { ...pending.params, _meta: pending.tasks ? this.#meta.tasks : this.#meta.plain },
    });
  }

  #send(pending: Pending, reissue?: Reissue): void {
    if (this.#state !== 'open' || !this.#transport) return; // Sent when the link opens.
    pending.sentOn = this.#transport;
    this.#write(this.#frame(pending), reissue);
    pending.onResend?.();
    if (pending.timeoutMs !== undefined) {
      const { id, sentOn } = pending;
      this.#scheduler.clearTimeout(pending.timer);
      pending.timer = this.#scheduler.setTimeout(
        () => this.#timedOut(id, sentOn),
        pending.timeoutMs,
      );
    }
  }

  /** No answer in time on a link that is still up: count it lost and re-issue (C8). */
  #timedOut(id: number, sentOn: Transport): void {
    const pending = this.#pending.get(id);
    if (!pending || this.#transport !== sentOn || this.#state !== 'open') return; // Answered, or the reconnect re-issues it.
    this.#pending.delete(id);
    pending.id = this.#nextId++;
    this.#pending.set(pending.id, pending);
    this.#send(pending, { of: id, reason: 'timeout' });
  }

  #write(message: unknown, reissue?: Reissue): void {
    if (!this.#transport) return;
    // A send into a broken link fails; its onclose re-issues what was in flight.
    this.#transport.send(message).catch(ignore);
    this.#log('out', message, reissue, this.#marks.take('out', message));
  }

  async #open(): Promise<void> {
    this.#setState(this.#attempt === 0 ? 'connecting' : 'reconnecting');
    let transport: Transport;
    try {
      transport = await this.#options.connect();
    } catch (error) {
      this.#scheduleReconnect(errorMessage(error));
      return;
    }
    if (this.#state === 'closed') {
      transport.close('client closed');
      return;
    }
    this.#transport = transport;
    this.#attempt = 0;
    transport.onmessage = (message) => this.#receive(message);
    transport.onclose = (reason) => this.#lost(transport, reason);
    transport.onfailure = (failure) => this.#failed(transport, failure);
    await transport.start();
    if (this.#transport !== transport || this.state === 'closed') return; // Broken or closed meanwhile.
    this.#setState('open', undefined, { attempt: 0 });
    // C8: whatever was in flight on the old link is lost; send it again under new ids.
    for (const [oldId, pending] of [...this.#pending]) {
      // Requests the state listener just sent on this link are not lost.
      if (pending.sentOn === transport) continue;
      if (pending.sentOn === undefined) {
        this.#send(pending);
        continue;
      }
      this.#pending.delete(oldId);
      pending.id = this.#nextId++;
      this.#pending.set(pending.id, pending);
      this.#send(pending, { of: oldId, reason: 'link' });
    }
  }

  #lost(transport: Transport, reason: string): void {
    if (transport !== this.#transport || this.#state === 'closed') return;
    this.#transport = undefined;
    this.#streams.end(reason, transport);
    this.#scheduleReconnect(reason);
  }

  /** HTTP answered one request, but with no JSON-RPC response: it fails, in words (no `code`: not `rpc`). */
  #failed(transport: Transport, { requestId: id, message }: RequestFailure): void {
    const error = { kind: 'invalid-response', message } as const;
    if (transport !== this.#transport || this.#streams.answered(id, error)) return;
    if (typeof id === 'number') this.#take(id)?.reject(error);
  }

  #scheduleReconnect(reason: string): void {
    if (this.#state === 'closed') return;
    const { initialMs, maxMs } = this.#options.backoff ?? { initialMs: 250, maxMs: 4000 };
    const delay = Math.min(maxMs, initialMs * 2 ** this.#attempt);
    this.#attempt++;
    const retryAt = this.#scheduler.now() + delay;
    this.#setState('reconnecting', `${reason}; retrying in ${delay} ms`, {
      attempt: this.#attempt,
      retryAt,
      reason,
    });
    this.#reconnectTimer = this.#scheduler.setTimeout(() => void this.#open(), delay);
  }

  #receive(data: unknown): void {
    this.#log('in', data, undefined, this.#marks.take('in', data));
    const parsed = parseMessage(data);
    switch (parsed.kind) {
      case 'result': {
        if (this.#streams.answered(parsed.message.id)) return;
        const pending = this.#take(parsed.message.id);
        if (
          pending &&
          pending.method !== Method.toolsCall &&
          parsed.message.result['resultType'] === 'task'
        ) {
          // T5: only tools/call may become a task; a task handle for anything else is a broken answer.
          pending.reject({
            kind: 'invalid-response',
            message: `${pending.method} answered with a task; only tools/call is task-capable (T5)`,
          });
          return;
        }
        pending?.resolve(parsed.message.result);
        return;
      }
      case 'error': {
        const id = parsed.message.id;
        if (this.#streams.answered(id, { kind: 'rpc', ...parsed.message.error })) return;
        const pending = id === null ? undefined : this.#take(id);
        pending?.reject({ kind: 'rpc', ...parsed.message.error });
        return;
      }
      case 'notification':
        this.#options.onNotification?.(parsed.message);
        return;
      case 'request':
        // This client offers no server-to-client requests on 2026-07-28 (input rides inputRequests).
        this.#write({
          jsonrpc: '2.0',
          id: parsed.message.id,
          error: { code: -32601, message: `Method not found: ${parsed.message.method}` },
        });
        return;
      case 'invalid': // Logged above; nothing can be correlated with it.
    }
  }

  #take(id: string | number): Pending | undefined {
    if (typeof id !== 'number') return undefined;
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    if (pending) this.#scheduler.clearTimeout(pending.timer);
    return pending;
  }

  #log(direction: WireDirection, message: unknown, reissue?: Reissue, net?: NetMark): void {
    const onWire = this.#options.onWire;
    if (!onWire) return;
    const entry: WireEntry = {
      seq: this.#options.nextSeq?.() ?? ++this.#seq,
      at: this.#scheduler.now(),
      direction,
      message,
    };
    // Set one by one, not spread from `{}`s: one object per message, not five (the order is the same).
    const { connection } = this.#options;
    if (connection !== undefined) entry.connection = connection;
    if (reissue) {
      entry.reissueOf = reissue.of;
      entry.reissueReason = reissue.reason;
    }
    if (net) entry.net = net;
    const http = httpFactsOf(message);
    if (http) entry.http = http;
    onWire(entry);
  }

  #setState(state: ConnectionState, detail?: string, info?: ConnectionInfo): void {
    this.#state = state;
    this.#options.onConnectionState?.(state, detail, info ?? { attempt: this.#attempt });
  }
}

type Reissue = { of: number; reason: 'link' | 'timeout' };

/** A send that failed is the link's to report (its onclose re-issues what was in flight). */
function ignore(): void {}
