/**
 * A checked run handed from the parse worker to the page in slices. Posting
 * the whole run as one message makes the page deserialise every event in one
 * task: for 100,000 messages that froze the page for seconds after the
 * worker had done its part. Sent as a head and slices of at most
 * {@link TRANSFER_SLICE} events, each slice is its own short task, and the
 * page can show how far it got.
 *
 * Protocol (worker to page): `failed`, or `head` (with the event count)
 * followed by `events` slices in order until that count is reached.
 */
import type { RunEvent } from '../record/run-events.ts';
import type { RunFile, RunFileVerdict } from '../record/run-file.ts';
import { parseRunFile } from '../record/run-file.ts';

/** Events per message: small enough that deserialising one is a short task. */
export const TRANSFER_SLICE = 1000;

export type RunHead = Omit<RunFile, 'events'>;

export type TransferMessage =
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'head'; readonly head: RunHead; readonly total: number }
  | { readonly kind: 'events'; readonly events: RunEvent[] };

/** What the worker posts for a run file's text: the verdict, the run in slices. */
export function* transferMessages(
  text: string,
  slice: number = TRANSFER_SLICE,
): Generator<TransferMessage> {
  const verdict = parseRunFile(text);
  if (!verdict.ok) {
    yield { kind: 'failed', error: verdict.error };
    return;
  }
  const { events, ...head } = verdict.run;
  yield { kind: 'head', head, total: events.length };
  for (let from = 0; from < events.length; from += slice)
    yield { kind: 'events', events: events.slice(from, from + slice) };
}

/** The page's side: takes the messages in order, and gives the verdict once the run is whole. */
export class RunAssembler {
  #head: RunHead | undefined;
  #total = 0;
  readonly #events: RunEvent[] = [];

  /** How much of the run has come, 0..1 (0 before the head). */
  get fraction(): number {
    if (this.#head === undefined) return 0;
    return this.#total === 0 ? 1 : this.#events.length / this.#total;
  }

  /** The verdict once `message` completes it; undefined while more is to come. */
  accept(message: TransferMessage): RunFileVerdict | undefined {
    switch (message.kind) {
      case 'failed':
        return { ok: false, error: message.error };
      case 'head':
        this.#head = message.head;
        this.#total = message.total;
        break;
      case 'events':
        if (this.#head === undefined)
          return { ok: false, error: 'the replay worker sent events before the run' };
        for (const event of message.events) this.#events.push(event);
        break;
    }
    if (this.#head === undefined || this.#events.length < this.#total) return undefined;
    return { ok: true, run: { ...this.#head, events: this.#events } };
  }
}
