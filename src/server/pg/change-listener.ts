/**
 * One connection per store that `LISTEN`s on its change channel. A pool
 * cannot listen (its connections come and go), so this is a client of its
 * own. When the database goes away it reconnects, backing off up to a few
 * seconds, and listens again; changes made while it was away are not
 * replayed (a job watching its task finds out at its next write or renewal).
 */
import pg from 'pg';

const FIRST_RETRY_MS = 200;
const LAST_RETRY_MS = 5000;

export class PgChangeListener {
  readonly #connectionString: string;
  readonly #channel: string;
  readonly #onPayload: (payload: string) => void;
  #client: pg.Client | undefined;
  #retryMs = FIRST_RETRY_MS;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(connectionString: string, channel: string, onPayload: (payload: string) => void) {
    this.#connectionString = connectionString;
    this.#channel = channel;
    this.#onPayload = onPayload;
  }

  /** Connects and listens; rejects when the first connection fails. */
  async start(): Promise<void> {
    await this.#connect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#connectionString });
    const lost = (): void => {
      if (this.#client !== client) return;
      this.#client = undefined;
      void client.end().catch(() => {});
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel === this.#channel && message.payload !== undefined)
        this.#onPayload(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.#channel)}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw error;
    }
    if (this.#stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#retryMs = FIRST_RETRY_MS;
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    this.#retry = setTimeout(() => {
      this.#connect().catch(() => {
        this.#retryMs = Math.min(this.#retryMs * 2, LAST_RETRY_MS);
        this.#scheduleReconnect();
      });
    }, this.#retryMs);
  }
}
