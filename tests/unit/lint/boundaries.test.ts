import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The project's own eslint.config.js, run on planted text: no file is written, and the
// imports point at files that exist so they resolve as real ones would.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The boundaries rule's messages for `code` as if it were the file at `path` (from the root). */
async function boundaryErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'boundaries/dependencies')
    .map((message) => message.message);
}

// The first lint loads typescript-eslint's type-aware program for the whole project: tens of
// seconds on a loaded two-core machine, so these tests get a minute each, not the default 20 s.
describe('the architecture rule (eslint-plugin-boundaries)', { timeout: 60_000 }, () => {
  it('src/protocol may import zod, and neither another src folder nor another package', async () => {
    const file = 'src/protocol/planted.ts';
    expect(await boundaryErrors(file, "import 'zod';\nimport './task.ts';\n")).toEqual([]);
    expect(await boundaryErrors(file, "import '../machines/task-machine.ts';\n")).toEqual([
      expect.stringContaining('from elements of type "protocol" to elements of type "machines"'),
    ]);
    expect(await boundaryErrors(file, "import 'xstate';\n")).toEqual([
      expect.stringContaining('module source "xstate"'),
    ]);
    // A local file outside every src/ folder counts too.
    expect(await boundaryErrors(file, "import '../../vite.config.ts';\n")).toHaveLength(1);
  });

  it('src/machines may import xstate and src/protocol, nothing else (STYLE: machines are pure)', async () => {
    const file = 'src/machines/planted.ts';
    expect(await boundaryErrors(file, "import 'xstate';\nimport '../protocol/task.ts';\n")).toEqual(
      [],
    );
    expect(await boundaryErrors(file, "import '../client/rpc-client.ts';\n")).toEqual([
      expect.stringContaining('to elements of type "client"'),
    ]);
    expect(await boundaryErrors(file, "import 'zod';\n")).toEqual([
      expect.stringContaining('module source "zod"'),
    ]);
    expect(await boundaryErrors(file, "export * from '../store/db.ts';\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "const m = import('node:fs');\n")).toHaveLength(1);
  });

  it('src/server may import src/machines, never the page; Node builtins and pg only in its Node-only files', async () => {
    const file = 'src/server/planted.ts';
    expect(
      await boundaryErrors(
        file,
        "import '../machines/task-machine.ts';\nimport '@modelcontextprotocol/server';\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('src/server/node-planted.ts', "import 'node:http';\nimport 'pg';\n"),
    ).toEqual([]);
    expect(await boundaryErrors('src/server/pg/planted.ts', "import 'pg';\n")).toEqual([]);
    expect(await boundaryErrors(file, "import 'node:http';\n")).toEqual([
      expect.stringContaining('module source "node:http"'),
    ]);
    expect(await boundaryErrors(file, "import 'pg';\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import '../ui/format.ts';\n")).toEqual([
      expect.stringContaining('from elements of type "server" to elements of type "ui"'),
    ]);
    expect(await boundaryErrors(file, "import '../net/transport.ts';\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import 'elkjs';\n")).toHaveLength(1);
  });

  it('the page reaches server code only as the worker URL in src/net/server-worker.ts', async () => {
    const start = "new Worker(new URL('../server/worker.ts', import.meta.url));\n";
    expect(await boundaryErrors('src/net/server-worker.ts', start)).toEqual([]);
    expect(await boundaryErrors('src/net/planted.ts', start)).toHaveLength(1);
    expect(
      await boundaryErrors('src/net/server-worker.ts', "import '../server/worker.ts';\n"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('src/ui/planted.ts', "import '../server/task-store.ts';\n"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/ui/components/Planted.svelte',
        '<script lang="ts">\n  import type { TaskStore } from \'../../server/task-store.ts\';\n</script>\n',
      ),
    ).toHaveLength(1);
    expect(await boundaryErrors('src/main.ts', "import './server/task-store.ts';\n")).toHaveLength(
      1,
    );
  });

  it('src/grade may import src/protocol and src/server, never the page; Node builtins only in its Node-only files', async () => {
    const file = 'src/grade/planted.ts';
    expect(
      await boundaryErrors(
        file,
        "import '../protocol/task.ts';\nimport '../server/tool.ts';\nimport 'zod';\n",
      ),
    ).toEqual([]);
    expect(await boundaryErrors(file, "import 'node:http';\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import '../session/page-session.ts';\n")).toHaveLength(1);
    expect(await boundaryErrors('src/grade/node-planted.ts', "import 'node:http';\n")).toEqual([]);
    // Nothing of the page imports the grader.
    expect(
      await boundaryErrors('src/ui/planted.ts', "import '../grade/checks.ts';\n"),
    ).toHaveLength(1);
  });

  it('src/check may import src/protocol and zod, never the page or the server; the page may import it', async () => {
    const file = 'src/check/planted.ts';
    expect(
      await boundaryErrors(file, "import 'zod';\nimport '../protocol/envelope.ts';\n"),
    ).toEqual([]);
    expect(await boundaryErrors(file, "import '../client/rpc-client.ts';\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import '../server/node-host.ts';\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import 'node:http';\n")).toHaveLength(1);
    expect(
      await boundaryErrors('src/ui/planted.ts', "import '../check/check-report.ts';\n"),
    ).toEqual([]);
  });

  it('a folder the rule does not know yet may import no other folder and no package', async () => {
    const file = 'src/unlisted/planted.ts';
    expect(await boundaryErrors(file, "import '../protocol/task.ts';\n")).toHaveLength(1);
    expect(await boundaryErrors(file, "import 'zod';\n")).toHaveLength(1);
  });
});
