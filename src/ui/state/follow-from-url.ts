/**
 * A tab opened with `?follow=<taskId>` (the second-tab step of a scenario,
 * M5): it asks its own server worker for the task by id alone, follows it,
 * and tells the other tabs what its tasks/get answered.
 */
import { describeError } from '../../client/rpc-error.ts';
import { TaskStatusSchema } from '../../protocol/task.ts';
import { followParam, reportToPeers } from './peer-tabs.ts';
import type { PageSession } from '../../session/page-session.ts';

export async function followFromUrl(session: PageSession): Promise<void> {
  const taskId = followParam(location.search);
  if (!taskId) return;
  try {
    const result = await session.request('tasks/get', { taskId }, { declare: true });
    const status = TaskStatusSchema.safeParse(result['status']);
    reportToPeers(
      status.success
        ? { taskId, status: status.data }
        : { taskId, error: 'tasks/get answered without a valid status' },
    );
  } catch (error) {
    reportToPeers({ taskId, error: `tasks/get failed: ${describeError(error)}` });
  }
  // Shown as a card too (this page may already follow it from the journal every tab shares).
  await session.followById(taskId);
}
