/**
 * A run file's text checked off the page's main thread: `JSON.parse` and
 * the schema over 100,000 events take seconds, which would freeze the page.
 *
 * Protocol: the text (a string) in; `TransferMessage`s out (`run-transfer.ts`):
 * what is wrong, or the run's head and then its events in slices.
 */
import { transferMessages, type TransferMessage } from './run-transfer.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<unknown>) => {
  const text = event.data;
  if (typeof text !== 'string') {
    const refused: TransferMessage = {
      kind: 'failed',
      error: 'the replay worker was sent no text',
    };
    scope.postMessage(refused);
    return;
  }
  for (const message of transferMessages(text)) scope.postMessage(message);
};
