/**
 * Tabs telling each other what they saw, for the second-tab step of the
 * handle-not-session scenario (M5): a tab opened with `?follow=<taskId>`
 * follows that task by its id alone and reports what its own tasks/get
 * said; the tab running the scenario listens. Same origin only
 * (BroadcastChannel), and only facts a learner could read off either tab.
 */
import { z } from 'zod';
import { TaskStatusSchema } from '../../protocol/task.ts';

const CHANNEL = 'mcp-tasks-playground:peer-tabs';

const PeerReportSchema = z.object({
  taskId: z.string(),
  status: TaskStatusSchema.optional(),
  error: z.string().optional(),
});
export type PeerMessage = z.infer<typeof PeerReportSchema>;

/** Posts one report to every other tab of this origin. */
export function reportToPeers(report: PeerMessage): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(report);
  channel.close();
}

/** Hears other tabs' reports; returns a function that stops listening. */
export function listenToPeers(onreport: (report: PeerMessage) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const parsed = PeerReportSchema.safeParse(event.data);
    if (parsed.success) onreport(parsed.data);
  };
  return () => channel.close();
}

/** The `?follow=<taskId>` of this page's address, if any. */
export function followParam(search: string): string | undefined {
  return new URLSearchParams(search).get('follow')?.trim() || undefined;
}
