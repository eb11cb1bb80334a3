/**
 * Reading a request body on the Node host, with its two limits enforced
 * while the bytes arrive rather than after: at most `MAX_BODY_BYTES`, and
 * UTF-8 throughout. JSON text is UTF-8, and a decoder that quietly replaced
 * bad bytes would hand the tools strings the client never sent; a body over
 * the limit is never read further, so a large upload cannot cost memory.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
// Node's own, so its type is known without the DOM library (the global is the same class).
import { TextDecoder } from 'node:util';
import { ErrorCode } from '../protocol/constants.ts';
import { rpcError, sendJson } from './node-http-replies.ts';

/** Largest request body accepted; larger ones get 413 before the rest is read. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Why a body was refused while it was read. */
export type BodyRefusal = 'too-large' | 'not-utf8';

/** A body being read: its bytes as a web stream, and, once the stream has errored for it, why it was refused. */
export interface CheckedBody {
  stream: ReadableStream<Uint8Array>;
  readonly refusal: BodyRefusal | undefined;
}

/**
 * The two limits, fed one chunk at a time: over `max` bytes in all, or a
 * byte that is not UTF-8, and the body is refused. The text decoded so far
 * is kept, so a reader that wants the whole body need not decode it again.
 */
class BodyCheck {
  #received = 0;
  readonly #utf8 = new TextDecoder('utf-8', { fatal: true });
  text = '';

  constructor(private readonly max: number) {}

  /** Takes the next chunk; the refusal it causes, if any. */
  chunk(bytes: Uint8Array): BodyRefusal | undefined {
    this.#received += bytes.length;
    if (this.#received > this.max) return 'too-large';
    try {
      this.text += this.#utf8.decode(bytes, { stream: true });
    } catch {
      return 'not-utf8';
    }
    return undefined;
  }

  /** The body has ended: a multi-byte sequence cut off at the very end is not UTF-8 either. */
  end(): BodyRefusal | undefined {
    try {
      this.text += this.#utf8.decode();
    } catch {
      return 'not-utf8';
    }
    return undefined;
  }
}

function refusalMessage(refusal: BodyRefusal, max: number): string {
  return refusal === 'too-large' ? `request body over ${max} bytes` : 'request body is not UTF-8';
}

/**
 * The node request body as a web stream that errors once more than `max`
 * bytes have arrived, or at the first byte that is not UTF-8, and stops
 * reading from the socket then: Content-Length may be absent (chunked) or
 * wrong, so the count is what is trusted.
 */
export function checkedBody(req: IncomingMessage, max: number): CheckedBody {
  let finished = false;
  const check = new BodyCheck(max);
  const state = {
    refusal: undefined as BodyRefusal | undefined,
    stream: undefined as unknown as ReadableStream<Uint8Array>,
  };
  state.stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const refuse = (refusal: BodyRefusal): void => {
        finished = true;
        state.refusal = refusal;
        req.pause();
        controller.error(new Error(refusalMessage(refusal, max)));
      };
      req.on('data', (chunk: Buffer) => {
        if (finished) return;
        const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
        const refusal = check.chunk(bytes);
        if (refusal) return refuse(refusal);
        controller.enqueue(bytes);
        if ((controller.desiredSize ?? 1) <= 0) req.pause();
      });
      req.on('end', () => {
        if (finished) return;
        const refusal = check.end();
        if (refusal) return refuse(refusal);
        finished = true;
        controller.close();
      });
      req.on('error', (error) => {
        if (finished) return;
        finished = true;
        controller.error(error);
      });
    },
    pull() {
      if (!finished) req.resume();
    },
    cancel() {
      finished = true;
    },
  });
  return state;
}

/** A body read whole: its text, or why it was refused, or `unreadable` (the request failed). */
export type BodyText = { text: string } | { refusal: BodyRefusal } | { unreadable: true };

/**
 * Reads the whole body as text under the same two limits as
 * {@link checkedBody}, straight from the socket: for a JSON body, which is
 * parsed whole anyway, no web stream is needed in between. Stops reading at
 * a refusal.
 */
export function checkedText(req: IncomingMessage, max: number): Promise<BodyText> {
  return new Promise((resolve) => {
    const check = new BodyCheck(max);
    let finished = false;
    // The listeners stay: a request that errors later (the client gone mid-body) must find one.
    const done = (result: BodyText): void => {
      if (finished) return;
      finished = true;
      if ('refusal' in result) req.pause();
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (finished) return;
      const refusal = check.chunk(chunk);
      if (refusal) done({ refusal });
    });
    req.on('end', () => {
      if (finished) return;
      const refusal = check.end();
      done(refusal ? { refusal } : { text: check.text });
    });
    req.on('error', () => done({ unreadable: true }));
  });
}

/** Answers a body refused while it was read: 413 when too large, 400 (-32700) when not UTF-8. */
export function refuseBody(res: ServerResponse, refusal: BodyRefusal): void {
  if (refusal === 'too-large') return tooLarge(res);
  // JSON text is UTF-8 (RFC 8259, section 8.1): bytes that are not cannot be JSON.
  res.setHeader('connection', 'close');
  sendJson(
    res,
    400,
    rpcError(ErrorCode.ParseError, 'Parse error: the request body is not valid UTF-8'),
  );
}

/** Answers 413 and closes the connection; also used before reading, when Content-Length is already over. */
export function tooLarge(res: ServerResponse): void {
  // The rest of the body is never read: the connection closes after this answer.
  res.setHeader('connection', 'close');
  sendJson(
    res,
    413,
    rpcError(
      ErrorCode.InvalidRequest,
      `Request body too large: the limit is ${MAX_BODY_BYTES} bytes`,
    ),
  );
}
