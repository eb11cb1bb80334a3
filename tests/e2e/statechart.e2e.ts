/**
 * The live statechart and the sequence view, in real Chromium. The states
 * the chart highlights are held to the task actor's own snapshot value
 * (`data-snapshot-value`, written from the actor's snapshots), not to
 * pixels; history steps are held to the wire (one `after pollInterval` step
 * per tasks/get sent).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { callTool, openPlayground, serverStatus, taskCard } from './playground.ts';
import { openStatechart } from './task-detail-page.ts';

type StateValue = string | { [key: string]: StateValue };

/** The machine's active leaf ids for a snapshot value, computed here, apart from the page's code. */
function leaves(value: StateValue, prefix = 'task'): string[] {
  if (typeof value === 'string') return [`${prefix}.${value}`];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, `${prefix}.${key}`));
}

interface ChartSample {
  value: StateValue;
  active: string[];
  highlighted: string[];
  stepEvent: string;
  live: boolean;
}

/** Reads the actor's value and what the chart highlights in one go (one frame). */
async function sample(detail: Locator): Promise<ChartSample> {
  return detail.evaluate((section: HTMLElement) => {
    const svg = section.querySelector<SVGSVGElement>('svg.chart');
    return {
      value: JSON.parse(section.dataset['snapshotValue'] ?? 'null') as StateValue,
      active: (svg?.dataset['activeStates'] ?? '').split(' ').filter(Boolean).sort(),
      highlighted: [...(svg?.querySelectorAll<SVGGElement>('[data-active="true"]') ?? [])]
        .map((g) => g.dataset['stateId'] ?? '')
        .sort(),
      stepEvent: svg?.dataset['stepEvent'] ?? '',
      live: section.dataset['live'] === 'true',
    };
  });
}

/** The page fits 1280 px: nothing scrolls sideways. */
const noHorizontalScroll = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test.beforeEach(async ({ page }) => {
  await openPlayground(page);
});

test('the statechart highlights exactly the states the task actor is in, at every step, and steps through its history', async ({
  page,
}) => {
  test.setTimeout(150_000);
  // A first chart lays the machine out (once per page), so the next one opens at once.
  await callTool(page, 'export_report');
  await openStatechart(page, 'export_report');
  await page.keyboard.press('Escape');

  // Polled every 2 s, so the history stays short enough to step through. The world is paused
  // while the chart opens (no job steps, no poll leaves), so however slow the machine, the task
  // is still working when sampling starts, and is seen live.
  await callTool(page, 'slow_compute', { seconds: '10', pollIntervalMs: '2000' });
  await expect(serverStatus(taskCard(page, 'slow_compute'))).toHaveText('working');
  const worldTime = page.getByRole('banner').getByRole('group', { name: 'World time' });
  await worldTime.getByRole('button', { name: 'Pause' }).click();
  const { detail, taskId } = await openStatechart(page, 'slow_compute');
  await expect(page.getByRole('button', { name: 'Close statechart' })).toBeFocused();
  expect(await noHorizontalScroll(page)).toBe(true);
  await worldTime.getByRole('button', { name: 'Resume' }).click();

  // Live: sample until the task ends; every sample must agree with the actor's snapshot.
  const samples: ChartSample[] = [];
  await expect
    .poll(
      async () => {
        const s = await sample(detail);
        samples.push(s);
        return s.value;
      },
      { timeout: 40_000, intervals: [40] },
    )
    .toBe('completed');
  for (const [i, s] of samples.entries()) {
    expect(s.live, `live at sample ${i}`).toBe(true);
    expect(s.active, `chart vs actor at sample ${i}`).toEqual(leaves(s.value).sort());
    expect(s.highlighted, `highlighted vs active at sample ${i}`).toEqual(s.active);
  }
  const seen = new Set(samples.flatMap((s) => s.active));
  expect([...seen].some((id) => id.startsWith('task.active.lifecycle.'))).toBe(true);
  expect(seen).toContain('task.completed');
  const end = await sample(detail);
  expect(end.active).toEqual(['task.completed']);
  // The step that ended it: the poll's answer, then the eventless move to `completed`.
  expect(end.stepEvent).toBe('done pollTask');
  await expect(detail.getByRole('status', { name: 'Server status in statechart' })).toHaveText(
    'completed',
  );
  await expect(detail.getByTestId('client-activity')).toContainText('stopped polling');

  // History, stepped with the keyboard from the newest step back to the start.
  const position = detail.getByTestId('history-position');
  const total = Number((await position.textContent())?.match(/of (\d+)/)?.[1]);
  expect(total).toBeGreaterThan(4);
  // The list numbers steps as "Step N of M" does: the newest is #M.
  const listedSteps = detail
    .getByRole('list', { name: 'Recorded steps, newest first' })
    .getByRole('button');
  await expect(listedSteps.first().locator('.index')).toHaveText(`#${total}`);
  await expect(listedSteps.last().locator('.index')).toHaveText('#1');
  const back = detail.getByRole('button', { name: 'Step back' });
  await back.focus();
  const events: string[] = [end.stepEvent];
  for (let step = total - 1; step >= 1; step--) {
    await page.keyboard.press('ArrowLeft');
    await expect(position).toContainText(`Step ${step} of ${total}:`);
    const s = await sample(detail);
    expect(s.live).toBe(false);
    expect(s.highlighted).toEqual(s.active);
    await expect(detail.getByTestId('history-event')).toHaveAttribute('data-event', s.stepEvent);
    events.unshift(s.stepEvent);
    // What each step's event means for the lifecycle region, by the machine's definition.
    if (s.stepEvent === 'after pollInterval')
      expect(s.active).toContain('task.active.lifecycle.polling');
    if (s.stepEvent === 'done pollTask')
      expect(s.active).toContain('task.active.lifecycle.waiting');
    if (s.stepEvent === 'start')
      expect(s.active).toEqual(
        expect.arrayContaining([
          'task.active.lifecycle.waiting',
          'task.active.input.idle',
          'task.active.cancel.idle',
        ]),
      );
  }
  expect(events[0]).toBe('start');
  // The actor is still where it ended while the chart shows the past.
  expect((await sample(detail)).value).toBe('completed');

  // One `after pollInterval` step per tasks/get the page sent for this task (T12).
  await page.getByRole('button', { name: 'Close statechart' }).click();
  await page.getByRole('tab', { name: 'Sequence' }).click();
  await page.getByRole('combobox', { name: 'Filter sequence by task' }).selectOption(taskId);
  await page.getByRole('combobox', { name: 'Filter sequence by method' }).selectOption('tasks/get');
  const sentPolls = page
    .getByRole('list', { name: 'Sequence messages' })
    .locator('li[data-direction="out"]');
  expect(await sentPolls.count()).toBe(events.filter((e) => e === 'after pollInterval').length);

  // Forward again, then End: live.
  await page.getByRole('tab', { name: 'Wire log' }).click();
  await taskCard(page, 'slow_compute').getByRole('button', { name: 'Statechart' }).click();
  const forward = detail.getByRole('button', { name: 'Step forward' });
  await expect(detail.getByRole('button', { name: 'Live' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await detail.getByRole('button', { name: 'Oldest step' }).click();
  await expect(position).toContainText(`Step 1 of ${total}: working CreateTaskResult`);
  await forward.click();
  await expect(position).toContainText(`Step 2 of ${total}:`);
  expect((await sample(detail)).stepEvent).toBe(events[1]);
  await forward.press('End');
  await expect(position).toContainText(`Step ${total} of ${total} (live)`);
  expect((await sample(detail)).active).toEqual(['task.completed']);

  // Escape closes the detail and gives focus back to the card's button.
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect(
    taskCard(page, 'slow_compute').getByRole('button', { name: 'Statechart' }),
  ).toBeFocused();
});

test('T17: a cancel that comes too late shows completed with "cancel requested" beside it', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await callTool(page, 'stubborn_migration');
  const card = taskCard(page, 'stubborn_migration');
  await expect(serverStatus(card)).toHaveText('working');
  await card.getByRole('button', { name: 'Cancel task' }).click();
  const { detail } = await openStatechart(page, 'stubborn_migration');

  await expect(detail.getByRole('status', { name: 'Server status in statechart' })).toHaveText(
    'completed',
    { timeout: 15_000 },
  );
  const server = detail.getByRole('region', { name: 'Server said' });
  await expect(server).toContainText('cancel requested');
  // The detail explains the end in the card's own words, from the task's news (T17).
  const detailNote = server.getByTestId('detail-cancel-note');
  await expect(detailNote).toContainText('Cancel was requested');
  await expect(detailNote).toContainText(/the server decides/i);
  const s = await sample(detail);
  expect(s.active).toEqual(['task.completed']);
  expect(s.active).toEqual(leaves(s.value));

  // The cancel's own path is in the history: the request went out and was acknowledged.
  const steps = detail.getByRole('list', { name: 'Recorded steps, newest first' });
  await expect(steps).toContainText('you asked to cancel: tasks/cancel sent');
  await expect(steps).toContainText('tasks/cancel acknowledged');
  await expect(steps).toContainText('cancel.acknowledged');
});

test('the sequence view shows tools/call -> task -> tasks/get for a taskId, filters by method, and shows exact JSON', async ({
  page,
}) => {
  await callTool(page, 'slow_compute', { seconds: '2' });
  const card = taskCard(page, 'slow_compute');
  await expect(serverStatus(card)).toHaveText('completed');
  const taskId = ((await card.locator('.task-id').textContent()) ?? '').trim();

  await page.getByRole('tab', { name: 'Sequence' }).click();
  await expect(page.getByRole('tab', { name: 'Sequence' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await page.getByRole('combobox', { name: 'Filter sequence by task' }).selectOption(taskId);
  const messages = page.getByRole('list', { name: 'Sequence messages' }).getByRole('listitem');
  const read = () =>
    messages.evaluateAll((items) =>
      items.map((li) => ({
        method: li.getAttribute('data-method'),
        direction: li.getAttribute('data-direction'),
        taskId: li.getAttribute('data-task-id'),
      })),
    );

  const rows = await read();
  expect(rows.length).toBeGreaterThanOrEqual(4);
  expect(rows.every((r) => r.taskId === taskId)).toBe(true);
  // The call learns its taskId from the answer that created the task.
  expect(rows.slice(0, 3)).toEqual([
    { method: 'tools/call', direction: 'out', taskId },
    { method: 'tools/call', direction: 'in', taskId },
    { method: 'tasks/get', direction: 'out', taskId },
  ]);
  await expect(messages.nth(1)).toContainText('task working');
  expect(await noHorizontalScroll(page)).toBe(true);
  await expect(messages.last()).toContainText('completed');

  await page.getByRole('combobox', { name: 'Filter sequence by method' }).selectOption('tasks/get');
  const polls = await read();
  expect(polls.length).toBeGreaterThanOrEqual(2);
  expect(polls.every((r) => r.method === 'tasks/get' && r.taskId === taskId)).toBe(true);
  expect(polls.filter((r) => r.direction === 'out').length).toBe(
    polls.filter((r) => r.direction === 'in').length,
  );

  // Clicking a message shows its exact JSON.
  await page
    .getByRole('combobox', { name: 'Filter sequence by method' })
    .selectOption('tools/call');
  const answer = messages.nth(1).locator('button[aria-expanded]');
  await answer.click();
  await expect(answer).toHaveAttribute('aria-expanded', 'true');
  const json = JSON.parse((await messages.nth(1).locator('pre').textContent()) ?? 'null') as {
    jsonrpc: string;
    result: Record<string, unknown>;
  };
  expect(json.jsonrpc).toBe('2.0');
  expect(json.result).toMatchObject({ resultType: 'task', taskId, status: 'working' });
});
