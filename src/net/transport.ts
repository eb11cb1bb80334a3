/**
 * A message transport: what the client needs from any link to a server,
 * shaped like the MCP SDK's Transport: `start`, `send`, `close`, and
 * callbacks. Messages are plain JSON-RPC objects; the link may break at any
 * time. What a simulated network does to each message is not the
 * transport's business: the network reports it to its observers
 * (net-marks.ts).
 */

export interface Transport {
  /** Begins delivering messages (`onmessage`); nothing arrives before. */
  start(): Promise<void>;
  /** Sends one message; rejects when the link is closed. */
  send(message: unknown): Promise<void>;
  /** Closes the link; `onclose` is called once, with `reason`. */
  close(reason?: string): void;
  /** Called for every message that arrives. */
  onmessage?: (message: unknown) => void;
  /** Called once when the link breaks or is closed. */
  onclose?: (reason: string) => void;
  /** Called when something went wrong that did not close the link (a message that could not be read or sent). */
  onerror?: (error: Error) => void;
  /**
   * Called when one request got an answer that is no JSON-RPC response (an
   * HTTP error, HTML, a reply that is not JSON-RPC, no answer in time): the
   * link stays up, and only that request fails. A MessagePort never calls it.
   */
  onfailure?: (failure: RequestFailure) => void;
}

/** One request that cannot be answered over its link, and why, in words for the page. */
export interface RequestFailure {
  requestId: string | number;
  message: string;
}

/** Opens a new link. Called again after every break. */
export type Connector = () => Promise<Transport>;
