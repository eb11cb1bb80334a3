/**
 * The page's JSON-RPC client: frames every request with the per-request
 * `_meta` envelope (C2), correlates responses by id, validates everything
 * that arrives, and re-issues requests lost to a broken link under new ids
 * (C8: there is no stream resumption). It reconnects on its own, with backoff.
 */
import { clientCapabilities, requestMeta, type ClientInfo } from '../protocol/envelope.ts';
import { parseMessage, type JsonRpcNotification, type JsonRpcRequest } from '../protocol/jsonrpc.ts';
import type { Connector, Transport } from '../net/transport.ts';
import type { CallError } from './rpc-error.ts';

export type WireDirection = 'out' | 'in';

/** One message that crossed the link, as the wire log shows it. */
export interface WireEntry {
  seq: number;
  at: number;
  direction: WireDirection;
  message: unknown;
  /** Set on a request sent again under a new id after the link broke (C8). */
  reissueOf?: number | string;
}

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface RpcClientOptions {
  clientInfo: ClientInfo;
  connect: Connector;
  /** Sees every message in both directions, in order. */
  onWire?: (entry: WireEntry) => void;
  onNotification?: (notification: JsonRpcNotification) => void;
  onConnectionState?: (state: ConnectionState, detail?: string) => void;
  /** Backoff after a failed or broken link: first delay and cap, in ms. */
  backoff?: { initialMs: number; maxMs: number };
}

export interface CallOptions {
  /** Declare the tasks extension on this one request (T1). */
  tasks: boolean;
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
}

export class RpcClient {
  readonly #options: RpcClientOptions;
  readonly #pending = new Map<number, Pending>();
  #transport: Transport | undefined;
  #state: ConnectionState = 'connecting';
  #nextId = 1;
  #seq = 0;
  #attempt = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: RpcClientOptions) {
    this.#options = options;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Opens the first link. */
  async start(): Promise<void> {
    await this.#open();
  }

  /**
   * Sends a request and resolves with its `result`. A JSON-RPC error
   * rejects with `{kind: 'rpc', code, message, data}`.
   */
  request(method: string, params: Record<string, unknown>, options: CallOptions): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const pending: Pending = { method, params, tasks: options.tasks, resolve, reject, id: this.#nextId++ };
      this.#pending.set(pending.id, pending);
      this.#send(pending);
    });
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
    clearTimeout(this.#reconnectTimer);
    this.#transport?.close('client closed');
    for (const pending of this.#pending.values()) pending.reject({ kind: 'closed', message: 'client closed' });
    this.#pending.clear();
  }

  #frame(pending: Pending): JsonRpcRequest {
    const meta = requestMeta(this.#options.clientInfo, clientCapabilities({ tasks: pending.tasks }));
    return { jsonrpc: '2.0', id: pending.id, method: pending.method, params: { ...pending.params, _meta: meta } };
  }

  #send(pending: Pending, reissueOf?: number): void {
    if (this.#state !== 'open' || !this.#transport) return; // Sent when the link opens.
    pending.sentOn = this.#transport;
    this.#write(this.#frame(pending), reissueOf);
  }

  #write(message: unknown, reissueOf?: number): void {
    if (!this.#transport) return;
    this.#log('out', message, reissueOf);
    try {
      this.#transport.send(message);
    } catch {
      // The link broke under us; onclose handles re-issue.
    }
  }

  async #open(): Promise<void> {
    this.#setState(this.#attempt === 0 ? 'connecting' : 'reconnecting');
    let transport: Transport;
    try {
      transport = await this.#options.connect();
    } catch (error) {
      this.#scheduleReconnect(error instanceof Error ? error.message : String(error));
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
    this.#setState('open');
    // C8: whatever was in flight on the old link is lost; send it again under new ids.
    for (const [oldId, pending] of [...this.#pending]) {
      if (pending.sentOn === undefined) {
        this.#send(pending);
        continue;
      }
      this.#pending.delete(oldId);
      pending.id = this.#nextId++;
      this.#pending.set(pending.id, pending);
      this.#send(pending, oldId);
    }
  }

  #lost(transport: Transport, reason: string): void {
    if (transport !== this.#transport || this.#state === 'closed') return;
    this.#transport = undefined;
    this.#scheduleReconnect(reason);
  }

  #scheduleReconnect(reason: string): void {
    if (this.#state === 'closed') return;
    const { initialMs, maxMs } = this.#options.backoff ?? { initialMs: 250, maxMs: 4000 };
    const delay = Math.min(maxMs, initialMs * 2 ** this.#attempt);
    this.#attempt++;
    this.#setState('reconnecting', `${reason}; retrying in ${delay} ms`);
    this.#reconnectTimer = setTimeout(() => void this.#open(), delay);
  }

  #receive(data: unknown): void {
    this.#log('in', data);
    const parsed = parseMessage(data);
    switch (parsed.kind) {
      case 'result': {
        const pending = this.#take(parsed.message.id);
        pending?.resolve(parsed.message.result);
        return;
      }
      case 'error': {
        const id = parsed.message.id;
        const pending = id === null ? undefined : this.#take(id);
        pending?.reject({ kind: 'rpc', ...parsed.message.error });
        return;
      }
      case 'notification':
        this.#options.onNotification?.(parsed.message);
        return;
      case 'request':
        // This client offers no server-to-client requests on 2026-07-28 (input rides inputRequests).
        this.#write({ jsonrpc: '2.0', id: parsed.message.id, error: { code: -32601, message: `Method not found: ${parsed.message.method}` } });
        return;
      case 'invalid':
        return; // Logged above; nothing can be correlated with it.
    }
  }

  #take(id: string | number): Pending | undefined {
    if (typeof id !== 'number') return undefined;
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    return pending;
  }

  #log(direction: WireDirection, message: unknown, reissueOf?: number): void {
    this.#options.onWire?.({ seq: ++this.#seq, at: Date.now(), direction, message, ...(reissueOf !== undefined ? { reissueOf } : {}) });
  }

  #setState(state: ConnectionState, detail?: string): void {
    this.#state = state;
    this.#options.onConnectionState?.(state, detail);
  }
}

