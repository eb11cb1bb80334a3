/**
 * A run file's text checked off the page's main thread: `JSON.parse` and
 * the schema over 100,000 events take seconds, which would freeze the page.
 *
 * Protocol: the text (a string) in; the verdict (`RunFileVerdict`) out.
 */
import { parseRunFile } from '../record/run-file.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<unknown>) => {
  const text = event.data;
  scope.postMessage(
    typeof text === 'string'
      ? parseRunFile(text)
      : { ok: false, error: 'the replay worker was sent no text' },
  );
};
