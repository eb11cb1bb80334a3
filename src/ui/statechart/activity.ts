/**
 * What the client is doing about a task, in words, from the task machine's
 * state value and the facts recorded with it. Kept apart from the server's
 * status on purpose: they are different facts (T17).
 */
import type { StateValue } from 'xstate';
import type { StepFacts } from '../state/task-history.ts';

export interface ActivityLine {
  /** Which region (or `outcome`) says it. */
  region: 'lifecycle' | 'input' | 'cancel' | 'link' | 'outcome';
  text: string;
  /** Something is in flight or being retried right now. */
  busy: boolean;
}

const FINAL: Record<string, string> = {
  completed: 'stopped polling: the server reported completed',
  failed: 'stopped polling: the server reported failed',
  cancelled: 'stopped polling: the server reported cancelled',
  expired: 'gave up: the TTL passed (T13)',
  gone: 'gave up: the server no longer knows the task (-32602)',
  forgotten: 'stopped following the task',
};

/** The client's activity at one step, region by region. */
export function clientActivity(
  value: StateValue,
  facts: Pick<StepFacts, 'pollIntervalMs' | 'pendingInputs' | 'link'>,
): ActivityLine[] {
  if (typeof value === 'string')
    return [{ region: 'outcome', text: FINAL[value] ?? value, busy: false }];
  const regions = (value['active'] ?? {}) as Record<string, unknown>;
  const lines: ActivityLine[] = [];
  if (regions['link'] === 'reconnecting') {
    const attempt = facts.link && facts.link.attempt > 0 ? `, attempt ${facts.link.attempt}` : '';
    lines.push({
      region: 'link',
      text: `offline: reconnecting with backoff${attempt}`,
      busy: true,
    });
  }
  switch (regions['lifecycle']) {
    case 'waiting':
      lines.push({
        region: 'lifecycle',
        text: `waiting for the next poll (every ${facts.pollIntervalMs} ms)`,
        busy: false,
      });
      break;
    case 'polling':
      lines.push({ region: 'lifecycle', text: 'polling: tasks/get in flight', busy: true });
      break;
    case 'backoff':
      lines.push({ region: 'lifecycle', text: 'backing off after a failed poll', busy: true });
      break;
    case 'offline':
      lines.push({
        region: 'lifecycle',
        text: 'a poll is due: it goes out when the link is back',
        busy: false,
      });
      break;
  }
  switch (regions['input']) {
    case 'sending':
      lines.push({ region: 'input', text: 'answering input: tasks/update in flight', busy: true });
      break;
    case 'retrying':
      lines.push({ region: 'input', text: 'answering input: retrying tasks/update', busy: true });
      break;
    default:
      if (facts.pendingInputs > 0)
        lines.push({
          region: 'input',
          text: `waiting for your answer (${facts.pendingInputs} open)`,
          busy: false,
        });
  }
  switch (regions['cancel']) {
    case 'sending':
      lines.push({
        region: 'cancel',
        text: 'cancel requested: tasks/cancel in flight',
        busy: true,
      });
      break;
    case 'retrying':
      lines.push({ region: 'cancel', text: 'cancel requested: retrying tasks/cancel', busy: true });
      break;
    case 'acknowledged':
      lines.push({
        region: 'cancel',
        text: 'cancel requested: acknowledged, the server decides',
        busy: false,
      });
      break;
    case 'refused':
      lines.push({ region: 'cancel', text: 'cancel refused by the server', busy: false });
      break;
  }
  return lines;
}
