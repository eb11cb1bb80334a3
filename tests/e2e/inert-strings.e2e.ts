/**
 * Every string the server sends is shown as text (src/ui/README.md): a
 * tool result, a task's result, statusMessage and checkpoint label, a tool
 * error, a JSON-RPC error message, and the wire log and sequence view that
 * show the same messages. The real server echoes the hostile strings (tool
 * arguments and an unknown taskId), so whatever the page does with them is
 * what it would do with a hostile server's.
 *
 * Nothing may run (no flag set, no dialog), no element the payload spells
 * may appear anywhere in the document, even for a moment (a MutationObserver
 * installed before the page loads records every added element), and each
 * string must read back literally, entities and all.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  callTool,
  drawn,
  findRow,
  openPlayground,
  readWire,
  resultsRegion,
  rowJson,
  serverStatus,
  taskCard,
  tasksRegion,
} from './playground.ts';

/** Markup, script, a `javascript:` URL, markdown, Svelte's raw-HTML tag and entities: each would do something if rendered as HTML. */
const HOSTILE =
  `<img src=x onerror="window.__pwned=1;alert(1)"><script>window.__pwned=2</script><b>bold</b>` +
  `<a href="javascript:window.__pwned=3">link</a> [md](javascript:window.__pwned=4) {@html '<u>raw</u>'} &lt;b&gt; &amp;`;

/** Element names the payload spells; the page itself draws none of them (an `<i>` key in the timeline is why `<i>` is not used). */
const PAYLOAD_TAGS = ['IMG', 'B', 'U', 'IFRAME', 'OBJECT', 'EMBED'];

declare global {
  interface Window {
    __pwned?: unknown;
    __injected?: string[];
  }
}

/** Runs in the page before its own scripts: records every element or attribute that markup in a string would have produced. */
function watchForInjection(tags: readonly string[]): void {
  const found: string[] = [];
  window.__injected = found;
  const badAttribute = (name: string, value: string): boolean =>
    name.toLowerCase().startsWith('on') || /^\s*javascript:/i.test(value);
  const check = (el: Element): void => {
    const tag = el.tagName.toUpperCase();
    if (tags.includes(tag)) found.push(`<${tag.toLowerCase()}>`);
    // The page's own module scripts are parser-inserted from index.html and have a src.
    if (tag === 'SCRIPT' && !el.hasAttribute('src'))
      found.push(`inline <script>: ${el.textContent ?? ''}`);
    for (const attr of Array.from(el.attributes))
      if (badAttribute(attr.name, attr.value))
        found.push(`<${tag.toLowerCase()} ${attr.name}="${attr.value}">`);
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (
        record.type === 'attributes' &&
        record.target instanceof Element &&
        record.attributeName
      ) {
        const value = record.target.getAttribute(record.attributeName);
        if (value !== null && badAttribute(record.attributeName, value))
          found.push(`${record.attributeName}="${value}" set later`);
        continue;
      }
      for (const node of Array.from(record.addedNodes)) {
        if (!(node instanceof Element)) continue;
        check(node);
        for (const child of Array.from(node.querySelectorAll('*'))) check(child);
      }
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
}

async function expectInert(
  page: Page,
  dialogs: readonly string[],
  region?: Locator,
): Promise<void> {
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  expect(await page.evaluate(() => window.__injected ?? ['observer missing'])).toEqual([]);
  expect(dialogs).toEqual([]);
  if (region)
    await expect(region.locator('img, script, b, u, iframe, a[href^="javascript:" i]')).toHaveCount(
      0,
    );
}

let dialogs: string[] = [];

test.beforeEach(async ({ page }) => {
  dialogs = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(watchForInjection, PAYLOAD_TAGS);
  await openPlayground(page);
});

test('a synchronous result, a task result, a statusMessage, a checkpoint label and a tool error (T11) are shown as text', async ({
  page,
}) => {
  test.setTimeout(60_000);

  await test.step('greet: a synchronous tool result', async () => {
    // By role: the label of a required field also holds its "required" mark, so callTool's getByLabel misses it.
    await page.getByRole('button', { name: /^greet\b/ }).click();
    const form = page.getByRole('form', { name: 'greet' });
    await form.getByRole('textbox', { name: 'name', exact: true }).fill(HOSTILE);
    await form.getByRole('button', { name: 'Call greet' }).click();
    const result = resultsRegion(page)
      .getByRole('listitem')
      .filter({ hasText: 'greet' })
      .locator('pre.text');
    await expect(result).toHaveText(`Hello, ${HOSTILE}!`);
    await expectInert(page, dialogs, resultsRegion(page));
  });

  await test.step('slow_compute: a completed task result', async () => {
    await callTool(page, 'slow_compute', { seconds: '1', label: HOSTILE });
    const card = taskCard(page, 'slow_compute');
    await expect(serverStatus(card)).toHaveText('completed');
    await expect(card.locator('pre.text')).toHaveText(`Computed ${HOSTILE} in 1 s`);
    await expectInert(page, dialogs, card);
  });

  await test.step('deploy_service: statusMessage, checkpoint label, input request and the result after declining', async () => {
    await callTool(page, 'deploy_service', { service: HOSTILE });
    const card = taskCard(page, 'deploy_service');
    await expect(card.locator('.status-message')).toHaveText(
      `staged ${HOSTILE} on 1 of 10 production hosts; waiting for approval`,
    );
    await expect(card.locator('.checkpoint')).toContainText(
      `built ${HOSTILE}; canary live on 1 of 10 hosts`,
    );
    const form = card.getByRole('form', { name: /Input request approve_rollout/ });
    await expect(form).toContainText(`Canary of ${HOSTILE} is healthy`);
    await expectInert(page, dialogs, card);
    await form.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect(serverStatus(card)).toHaveText('completed');
    await expect(card.locator('pre.text')).toHaveText(
      `Roll-out of ${HOSTILE} to production not approved (the approval was declined); canary rolled back.`,
    );
    await expectInert(page, dialogs, card);
  });

  await test.step('failing_job: a tool error (isError) in a completed task', async () => {
    await callTool(page, 'failing_job', { reason: HOSTILE });
    const card = taskCard(page, 'failing_job');
    await expect(serverStatus(card)).toHaveText('completed');
    await expect(card).toContainText('Tool error (isError: true)');
    await expect(card.locator('pre.text')).toHaveText(`The job failed: ${HOSTILE}.`);
    await expectInert(page, dialogs, card);
  });

  await test.step("the task's statechart detail", async () => {
    const card = taskCard(page, 'deploy_service');
    await card.getByRole('button', { name: 'Statechart' }).click();
    const detail = page.getByRole('region', { name: /^Statechart of deploy_service task/ });
    await expect(detail.getByRole('status', { name: 'Server status in statechart' })).toHaveText(
      'completed',
    );
    await expectInert(page, dialogs, detail);
    await detail.getByRole('button', { name: /^Close/ }).click();
  });

  await test.step('the wire log: the answers, expanded to their exact JSON', async () => {
    const taskId =
      (await taskCard(page, 'failing_job').locator('code.task-id').textContent()) ?? '';
    const greetAnswerRow = { direction: 'in', method: 'tools/call', gist: 'complete' } as const;
    const toolErrorRow = {
      direction: 'in',
      method: 'tasks/get',
      taskId,
      gist: 'completed',
    } as const;
    const rows = await readWire(
      page,
      drawn(greetAnswerRow, toolErrorRow),
      "greet's answer and the poll that saw failing_job completed",
    );
    const greetAnswer = findRow(rows, greetAnswerRow);
    expect(await rowJson(page, rows[greetAnswer]!)).toMatchObject({
      result: { content: [{ type: 'text', text: `Hello, ${HOSTILE}!` }] },
    });
    const toolError = findRow(rows, toolErrorRow);
    expect(await rowJson(page, rows[toolError]!)).toMatchObject({
      result: {
        status: 'completed',
        result: { isError: true, content: [{ type: 'text', text: `The job failed: ${HOSTILE}.` }] },
      },
    });
    const list = page.getByRole('list', { name: 'Wire log messages' });
    await expect(list.locator('pre')).toHaveCount(2);
    await expectInert(page, dialogs, list);
  });
});

test('a JSON-RPC error message echoing an unknown taskId is shown as text: Follow task by id, wire log, sequence view', async ({
  page,
}) => {
  await page.getByLabel('Follow task by id').fill(HOSTILE);
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  const alert = page.getByRole('form', { name: 'Follow a task by id' }).getByRole('alert');
  await expect(alert).toContainText(`Task not found: ${HOSTILE}`);
  await expect(tasksRegion(page).getByRole('article')).toHaveCount(0);
  await expectInert(page, dialogs, alert);

  // The wire log: the request's task cell and the error's exact JSON.
  const errorMatch = { direction: 'in', method: 'tasks/get', gist: 'error -32602' } as const;
  const rows = await readWire(page, drawn(errorMatch), 'tasks/get answered -32602');
  const errorRow = findRow(rows, errorMatch);
  expect(rows[errorRow]!.taskId).toBe(HOSTILE);
  // The expanded row is the exact JSON (quotes escaped), so it is read back through JSON.parse.
  expect(await rowJson(page, rows[errorRow]!)).toMatchObject({
    error: { code: -32602, message: `Task not found: ${HOSTILE}` },
  });
  await expectInert(page, dialogs, page.getByRole('list', { name: 'Wire log messages' }));

  // The sequence view: the task filter's option, the message's task cell, its JSON.
  await page.getByRole('tab', { name: 'Sequence' }).click();
  const sequence = page.getByRole('list', { name: 'Sequence messages' });
  const answer = sequence.locator('li[data-direction="in"][data-kind="error"]');
  await expect(answer).toHaveCount(1);
  expect(await answer.getAttribute('data-task-id')).toBe(HOSTILE);
  await answer.locator('button[aria-expanded]').click();
  expect(JSON.parse((await answer.locator('pre').textContent()) ?? 'null')).toMatchObject({
    error: { message: `Task not found: ${HOSTILE}` },
  });
  await expect(
    page
      .getByRole('combobox', { name: 'Filter sequence by task' })
      .locator('option', { hasText: HOSTILE.slice(0, 10) }),
  ).toHaveCount(1);
  await expectInert(page, dialogs, sequence);
});
