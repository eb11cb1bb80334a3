/**
 * Web Worker entry: one playground server per worker, serving every port
 * the page hands over. The page owns the worker (src/net/server-worker.ts);
 * killing it loses everything this in-memory server held.
 */
/// <reference lib="webworker" />
import { ConnectMessageSchema } from '../protocol/worker-control.ts';
import { createPlaygroundServer } from './playground-server.ts';
import { servePort } from './port-host.ts';

const server = createPlaygroundServer();

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const connect = ConnectMessageSchema.safeParse(event.data);
  const port = event.ports[0];
  if (!connect.success || !port) {
    console.error('[worker] ignored a control message that is not a valid connect', event.data);
    return;
  }
  servePort(server, port, connect.data.identity);
});
