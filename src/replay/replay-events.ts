/**
 * What the replay reads from a run file: its events, each under one of a few
 * kinds the page's views use, with the session's own payload types (the wire
 * entry, the packet update, the fault notice, the x-ray's reading), ordered by
 * `at` (ms since the run's first event). `run-source.ts` turns a parsed run
 * file into these; the index and the player know nothing of the file itself.
 */
import type { WireEntry } from '../client/rpc-client.ts';
import type { PacketUpdate } from '../net/net-marks.ts';
import type { TaskStatus } from '../protocol/task.ts';
import type { RunTaskStep } from '../record/run-events.ts';
import type { FaultNotice } from '../session/fault-notices.ts';
import type { StoredTaskReading } from '../session/server-xray.ts';

/** One step of a task actor, as its history recorded it (XState inspection). */
export interface RecordedStep {
  readonly taskId: string;
  /** The event as a learner reads it (`poll.answered`). */
  readonly event: string;
  /** The machine's state value after the step. */
  readonly value: unknown;
  /** The status the client had last seen from the server at this step (T6). */
  readonly serverStatus: TaskStatus | undefined;
  /** The interval the client polled at then (the server's `pollIntervalMs`), when the step says. */
  readonly pollIntervalMs?: number | undefined;
  /** The tool that made the task, when the step says. */
  readonly toolName: string | undefined;
  /** The whole step as the history view recorded it, when the run holds it: what the replay's history steps through. */
  readonly recorded?: RunTaskStep | undefined;
}

export type ReplayEvent =
  | { readonly at: number; readonly kind: 'wire'; readonly entry: WireEntry }
  | { readonly at: number; readonly kind: 'packet'; readonly update: PacketUpdate }
  | { readonly at: number; readonly kind: 'fault'; readonly notice: FaultNotice }
  | { readonly at: number; readonly kind: 'wire-cleared' }
  /** The page began to follow a task (its card appears). */
  | {
      readonly at: number;
      readonly kind: 'task';
      readonly taskId: string;
      readonly toolName: string;
    }
  | { readonly at: number; readonly kind: 'task-step'; readonly step: RecordedStep }
  | {
      readonly at: number;
      readonly kind: 'xray';
      readonly taskId: string;
      readonly reading: StoredTaskReading;
    }
  /** Anything else the run holds (connection, server, tool call and answer): a moment, a line of text. */
  | { readonly at: number; readonly kind: 'other'; readonly label: string };

export type ReplayEventKind = ReplayEvent['kind'];
