/**
 * A clean page for a scenario, on the session: no tasks or call results, no
 * armed faults, a clean link, push off, the jobs' clock running, the server
 * running with the scenario's store, the wire log emptied (kept rows stay in
 * storage). Waits on conditions (connected, nothing in flight), never on a
 * sleep.
 */
import { cleanLink } from '../net/link-conditions.ts';
import type { TaskStoreKind } from '../protocol/worker-control.ts';
import type { PageSession } from './page-session.ts';

export interface ScenarioSetup {
  store: TaskStoreKind;
  declareTasks: boolean;
}

/** How long the dismissed tasks' last answers may take to arrive before the log is emptied anyway. */
const SETTLE_MS = 2000;

export async function prepareScenario(session: PageSession, setup: ScenarioSetup): Promise<void> {
  for (const actor of session.tasks) session.dismiss(actor.getSnapshot().context.taskId);
  session.resetViews();
  session.closeConnections();
  const network = session.network;
  for (const rule of network.rules.rules) network.disarm(rule.id);
  const clean = cleanLink();
  network.setConditions('out', clean.out);
  network.setConditions('in', clean.in);
  network.goOnline();
  session.setPush(false);
  session.holdJobs(false);
  session.declareTasks = setup.declareTasks;
  if (setup.store !== session.storage.serverStore.chosen) session.setServerStore(setup.store);
  else if (!session.server.running) session.restartServer();
  await session.whenConnected();
  // Answers to the dismissed tasks' last polls would land in the emptied log as noise: let them arrive first.
  await session.whenIdle(SETTLE_MS);
  session.clearWireLog();
}
