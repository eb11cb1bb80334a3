/**
 * CDP access to a dedicated worker, so the bench can CPU-profile the server
 * worker as `cpu-profile.ts` profiles a page. Playwright opens CDP sessions
 * on pages only, so this goes through the browser's session: it finds the
 * worker among the browser's targets, attaches to it (not flattened), and
 * carries each command inside `Target.sendMessageToTarget`.
 */
import type { Browser, CDPSession } from '@playwright/test';
import type { CdpSend } from './cpu-profile.ts';

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

/** A CDP sender for the first worker whose script URL matches `url`, and `detach` to let it go. */
export async function attachToWorker(
  browser: Browser,
  url: RegExp,
): Promise<{ send: CdpSend; detach(): Promise<void> }> {
  const cdp: CDPSession = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
  const target = targetInfos.find((t) => t.type === 'worker' && url.test(t.url));
  if (!target) {
    await cdp.detach();
    throw new Error(`no worker matching ${url}`);
  }
  const { sessionId } = (await cdp.send('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: false,
  })) as { sessionId: string };
  let nextId = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const reply = JSON.parse(event.message) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
    };
    if (reply.id === undefined) return;
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.error) pending?.reject(new Error(reply.error.message));
    else pending?.resolve(reply.result);
  });
  const send: CdpSend = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      void cdp
        .send('Target.sendMessageToTarget', {
          sessionId,
          message: JSON.stringify({ id, method, params }),
        })
        .catch(reject);
    });
  return {
    send,
    detach: async () => {
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      await cdp.detach();
    },
  };
}
