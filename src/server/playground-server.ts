/**
 * Assembles one playground server: a store, a job runner, the task logic,
 * the tools, and the SDK's per-request HTTP entry serving them. Both hosts
 * (worker and Node) build exactly this.
 */
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { every, realTimers } from '../clock/timers.ts';
import { createServerFactory } from './create-server.ts';
import { JobAdoption } from './job-adoption.ts';
import { JobClock } from './job-clock.ts';
import { JobRunner, type JobRunnerOptions } from './job-runner.ts';
import { MemoryTaskStore } from './memory-task-store.ts';
import type { TaskStore } from './task-store.ts';
import { TaskService, type TaskServiceOptions } from './task-service.ts';
import { TaskSubscriptions } from './task-subscriptions.ts';
import { ALL_TOOLS } from './tools/index.ts';

export interface PlaygroundServer {
  store: TaskStore;
  runner: JobRunner;
  /** The time the jobs sleep on: the drill holds it while a learner guesses. */
  clock: JobClock;
  /** Finds jobs whose worker stopped and resumes them here. */
  adoption: JobAdoption;
  service: TaskService;
  subscriptions: TaskSubscriptions;
  /** The SDK's web-standard entry: one `Request` in, one `Response` out. */
  http: McpHttpHandler;
  /** Stops the expiry sweep, the adoption scan, the jobs running here and the SDK handler. */
  close(): Promise<void>;
}

export type PlaygroundServerOptions = Partial<Omit<TaskServiceOptions, 'runner'>> & {
  /** How often expired tasks are swept (T13); 0 disables the timer. */
  sweepIntervalMs?: number;
  /** Lease settings and the runner's id (durable jobs). */
  runner?: Omit<JobRunnerOptions, 'now' | 'clock' | 'timers'>;
  /** How often to look for orphaned jobs to resume; 0 disables the timer. */
  adoptIntervalMs?: number;
};

export function createPlaygroundServer(options: PlaygroundServerOptions = {}): PlaygroundServer {
  const store = options.store ?? new MemoryTaskStore();
  // Every timer and timestamp of the server: in the worker the world clock, which can pause.
  const timers = options.timers ?? realTimers;
  const now = options.now ?? (() => timers.now());
  const tools = options.tools ?? ALL_TOOLS;
  const clock = new JobClock(timers);
  const runner = new JobRunner(store, { ...options.runner, now, clock, timers });
  const service = new TaskService({ ...options, store, runner, now, tools, timers });
  const adoption = new JobAdoption(store, runner, tools, {
    now,
    timers,
    everyMs: options.adoptIntervalMs ?? runner.heartbeatMs,
  });
  adoption.start();
  // legacy: 'reject': this server speaks 2026-07-28 only; 2025 openings get -32022.
  const http = createMcpHandler(createServerFactory(service), { legacy: 'reject' });
  const subscriptions = new TaskSubscriptions(service, store);
  const sweepMs = options.sweepIntervalMs ?? 1000;
  const stopSweep =
    sweepMs > 0
      ? every(timers, sweepMs, () =>
          service
            .sweep()
            .catch((error: unknown) => console.error('[server] the expiry sweep failed', error)),
        )
      : undefined;
  return {
    store,
    runner,
    clock,
    adoption,
    service,
    subscriptions,
    http,
    async close() {
      stopSweep?.();
      adoption.stop();
      runner.stop();
      subscriptions.closeAll();
      await http.close();
    },
  };
}
