/**
 * Clients opened besides the page's own, by name: a second connection, or
 * another identity (T20). Their messages join the page's wire log marked
 * with their name; none is kept across a reload.
 */
import { RpcClient, type RpcClientOptions } from '../client/rpc-client.ts';

export class NamedConnections {
  readonly #clients = new Map<string, RpcClient>();
  readonly #identities = new Map<string, string>();
  readonly #options: (name: string, identity: string) => RpcClientOptions;

  /** `options` builds each client's options (connector, shared numbering, wire listener). */
  constructor(options: (name: string, identity: string) => RpcClientOptions) {
    this.#options = options;
  }

  get(name: string): RpcClient | undefined {
    return this.#clients.get(name);
  }

  /** The identity `name` was opened as (kept after it closes, for explaining its tasks). */
  identityOf(name: string): string | undefined {
    return this.#identities.get(name);
  }

  /** Opens (or re-opens) `name` as `identity`; resolves once its link is open. */
  async open(name: string, identity: string): Promise<void> {
    this.#clients.get(name)?.close();
    this.#identities.set(name, identity);
    const client = new RpcClient(this.#options(name, identity));
    this.#clients.set(name, client);
    await client.start();
  }

  closeAll(): void {
    for (const client of this.#clients.values()) client.close();
    this.#clients.clear();
  }
}
