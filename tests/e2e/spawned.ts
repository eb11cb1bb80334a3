/**
 * A process the e2e test starts (the project's server, its proxy, a fixture
 * server): started in its own process group, resolved with the URL it prints
 * once it listens, stopped (with its children) by `stop()`.
 */
import { spawn } from 'node:child_process';

export interface Spawned {
  /** The first match of the pattern's group 1 in what it printed: its URL. */
  url: string;
  /** What it had printed by then, as a learner would copy it from the terminal. */
  printed: string;
  stop(): void;
}

/** Runs `node_modules/.bin/tsx <args>` until it prints a line matching `listening` (group 1: the URL). */
export function spawnTsx(args: readonly string[], listening: RegExp): Promise<Spawned> {
  const child = spawn('node_modules/.bin/tsx', [...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const stop = (): void => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  return new Promise<Spawned>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = listening.exec(out)?.[1];
      if (url) resolve({ url, printed: out, stop });
    });
    child.once('exit', (code) =>
      reject(new Error(`tsx ${args.join(' ')} exited (${code}): ${out}`)),
    );
  });
}
