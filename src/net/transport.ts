/**
 * A message transport: what the client needs from any link to a server.
 * Messages are plain JSON-RPC objects; the link may break at any time.
 */
export interface Transport {
  send(message: unknown): void;
  /** Called for every message that arrives. */
  onmessage?: (message: unknown) => void;
  /** Called once when the link breaks or is closed. */
  onclose?: (reason: string) => void;
  close(reason?: string): void;
}

/** Opens a new link. Called again after every break. */
export type Connector = () => Promise<Transport>;
