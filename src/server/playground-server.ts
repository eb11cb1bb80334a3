/**
 * Assembles one playground server: a store, a job runner, the task logic,
 * the tools, and the SDK's per-request HTTP entry serving them. Both hosts
 * (worker and Node) build exactly this.
 */
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { createServerFactory } from './create-server.ts';
import { JobRunner } from './job-runner.ts';
import { MemoryTaskStore } from './memory-task-store.ts';
import type { TaskStore } from './task-store.ts';
import { TaskService, type TaskServiceOptions } from './task-service.ts';
import { TaskSubscriptions } from './task-subscriptions.ts';
import { ALL_TOOLS } from './tools/index.ts';

export interface PlaygroundServer {
  store: TaskStore;
  runner: JobRunner;
  service: TaskService;
  subscriptions: TaskSubscriptions;
  /** The SDK's web-standard entry: one `Request` in, one `Response` out. */
  http: McpHttpHandler;
  /** Stops the expiry sweep and the SDK handler. */
  close(): Promise<void>;
}

export type PlaygroundServerOptions = Partial<Omit<TaskServiceOptions, 'runner'>> & {
  /** How often expired tasks are swept (T13); 0 disables the timer. */
  sweepIntervalMs?: number;
};

export function createPlaygroundServer(options: PlaygroundServerOptions = {}): PlaygroundServer {
  const store = options.store ?? new MemoryTaskStore();
  const now = options.now ?? Date.now;
  const runner = new JobRunner(store, now);
  const service = new TaskService({ ...options, store, runner, now, tools: options.tools ?? ALL_TOOLS });
  // legacy: 'reject': this server speaks 2026-07-28 only; 2025 openings get -32022.
  const http = createMcpHandler(createServerFactory(service), { legacy: 'reject' });
  const subscriptions = new TaskSubscriptions(service, store);
  const sweepMs = options.sweepIntervalMs ?? 1000;
  const sweep = sweepMs > 0 ? setInterval(() => void service.sweep(), sweepMs) : undefined;
  return {
    store,
    runner,
    service,
    subscriptions,
    http,
    async close() {
      if (sweep) clearInterval(sweep);
      subscriptions.closeAll();
      await http.close();
    },
  };
}
