import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../../src/protocol/error-message.ts';

describe('errorMessage', () => {
  it('reads the message of an Error, of a subclass, and of a plain error object', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage(new TypeError('bad type'))).toBe('bad type');
    // A JSON-RPC error or a CallError after postMessage: a plain object.
    expect(errorMessage({ code: -32602, message: 'Task not found' })).toBe('Task not found');
    expect(errorMessage(structuredClone({ kind: 'closed', message: 'client closed' }))).toBe(
      'client closed',
    );
  });

  it('gives any other value as text', () => {
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage(null)).toBe('null');
    expect(errorMessage({ code: 1 })).toBe('[object Object]');
  });
});
