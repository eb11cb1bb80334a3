/** T19: the headers a Streamable HTTP client derives from a request, for any tool name or taskId. */
import { describe, expect, it } from 'vitest';
import { declaresTasks, headerSafe, httpHeadersFor } from '../../../src/protocol/envelope.ts';

const decode = (value: string): string => {
  const match = /^=\?base64\?(.*)\?=$/s.exec(value);
  if (!match) return value;
  return new TextDecoder('utf-8', { fatal: true }).decode(
    Uint8Array.from(atob(match[1]!), (c) => c.charCodeAt(0)),
  );
};

describe('Mcp-Name', () => {
  it('T19: a visible-ASCII taskId travels as it is', () => {
    const headers = httpHeadersFor({
      jsonrpc: '2.0',
      id: 1,
      method: 'tasks/get',
      params: { taskId: 'aZ09-_x' },
    });
    expect(headers['mcp-name']).toBe('aZ09-_x');
  });

  it('T19: a name no header can hold as it is travels Base64-encoded (SEP-2243), and decodes to itself', () => {
    for (const name of [
      'grüßen',
      'tâche-💥',
      ' padded ',
      '',
      'line\r\nbreak',
      '=?base64?AAA?=',
      '\u0000',
    ]) {
      const value = headerSafe(name);
      expect(value, name).toMatch(/^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
      expect(decode(value), name).toBe(name);
      // A Headers object accepts it (it refuses bytes above 0xFF and CR/LF).
      expect(() => new Headers({ 'mcp-name': value })).not.toThrow();
    }
  });
});

describe('declaresTasks', () => {
  const TASKS = 'io.modelcontextprotocol/tasks';

  it('T1: the extension is declared by an object under extensions, whatever else is there', () => {
    expect(declaresTasks({ extensions: { [TASKS]: {} } })).toBe(true);
    // The 2025 `tasks` member is not part of a 2026 declaration: the SDK ignores it, so do we.
    expect(declaresTasks({ tasks: 5, extensions: { [TASKS]: {} } })).toBe(true);
  });

  it('T1: no extensions, another extension, or settings that are not an object declare nothing', () => {
    for (const capabilities of [
      undefined,
      null,
      {},
      { extensions: {} },
      { extensions: { other: {} } },
      { extensions: { [TASKS]: true } },
      { extensions: { [TASKS]: [] } },
      { extensions: 'tasks' },
    ])
      expect(declaresTasks(capabilities), JSON.stringify(capabilities)).toBe(false);
  });
});
