/**
 * `npm run grade-client` stopped as a terminal's Ctrl-C stops it: SIGINT to
 * the whole process group (npm, and everything it started), so npm also
 * forwards its own copy. The card is printed and the documented exit code
 * holds through npm (3: no client came), not npm's or tsx's 130.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('npm run grade-client on Ctrl-C', () => {
  it('prints the report card and exits 3 when no client came, through npm', async () => {
    const child = spawn('npm', ['run', '--silent', 'grade-client', '--', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | string | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? signal)),
    );
    try {
      await expect.poll(() => out, { timeout: 60_000 }).toContain('prints the report card');
      process.kill(-child.pid!, 'SIGINT');
      expect(await exited).toBe(3);
      expect(out).toContain('SIGINT: the report card');
      expect(out).toContain('No client has sent a request yet.');
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
  }, 90_000);
});
