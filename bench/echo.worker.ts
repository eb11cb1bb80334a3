/**
 * The physical floor for the worker round trip: a worker that posts every
 * message straight back on the port it was handed, as the server worker is
 * handed one per `connect`. Bench only (bench/worker-roundtrip.html).
 */
/// <reference lib="webworker" />
declare const self: DedicatedWorkerGlobalScope;
export {};

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const port = event.ports[0];
  if (!port) return;
  port.addEventListener('message', (message: MessageEvent<unknown>) =>
    port.postMessage(message.data),
  );
  port.start();
});
