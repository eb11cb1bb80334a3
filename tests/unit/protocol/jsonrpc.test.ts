/**
 * C7: how an arriving value is classified. The SDK's message schemas are
 * stricter than a host that must never answer a notification can use (see
 * src/protocol/jsonrpc.ts); these pin the differences we rely on.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  builtRequest,
  JsonRpcRequestSchema,
  JsonRpcResultSchema,
  parseMessage,
} from '../../../src/protocol/jsonrpc.ts';

describe('parseMessage', () => {
  it('C7: a message object is validated once; every later layer gets the same verdict, a new object is validated afresh', () => {
    const validate = vi.spyOn(JsonRpcResultSchema, 'safeParse');
    try {
      // Judged by the schema (a well-formed result is not: see the next test); refused alike every time.
      const message = { jsonrpc: '2.0', id: 3, result: ['working'] };
      const first = parseMessage(message);
      // The network's tracker, the client and the wire log's annotator each classify the same object.
      expect(parseMessage(message)).toBe(first);
      expect(parseMessage(message)).toBe(first);
      expect(validate).toHaveBeenCalledTimes(1);
      expect(parseMessage({ ...message })).toEqual(first);
      expect(validate).toHaveBeenCalledTimes(2);
      const bad = { jsonrpc: '1.0', id: 4, result: {} };
      expect(parseMessage(bad).kind).toBe('invalid');
      expect(parseMessage(bad).kind).toBe('invalid');
    } finally {
      validate.mockRestore();
    }
  });

  it('C7: a well-formed result is classified as the schema would, without running it, and kept as it is (its result not copied)', () => {
    const validate = vi.spyOn(JsonRpcResultSchema, 'safeParse');
    try {
      const message = { jsonrpc: '2.0', id: 3, result: { taskId: 't', status: 'working' } };
      const verdict = parseMessage(message);
      expect(validate).not.toHaveBeenCalled();
      expect(verdict).toEqual({ kind: 'result', message });
      expect(verdict.kind === 'result' && verdict.message.result).toBe(message.result);
    } finally {
      validate.mockRestore();
    }
  });

  it('C7: of anything shaped like a result, exactly what the schema accepts is a result', () => {
    const id = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.constant(2 ** 53),
      fc.anything(),
    );
    const result = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.anything(),
      fc.constant(Object.create(null) as object),
      fc.constant(new Date(0)),
      fc.constant(new Map()),
    );
    const jsonrpc = fc.oneof(fc.constant('2.0'), fc.anything());
    fc.assert(
      fc.property(fc.record({ jsonrpc, id, result }, { requiredKeys: [] }), (value) => {
        const expected = JsonRpcResultSchema.safeParse(value).success;
        expect(parseMessage(value).kind === 'result').toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('C7: a request the client built is classified as the schema would, without running it; a foreign one still is', () => {
    const validate = vi.spyOn(JsonRpcRequestSchema, 'safeParse');
    try {
      const built = builtRequest({
        jsonrpc: '2.0',
        id: 12,
        method: 'tasks/get',
        params: { taskId: 't', _meta: { a: 1 } },
      });
      const verdict = parseMessage(built);
      expect(validate).not.toHaveBeenCalled();
      // The verdict the schema would have given the same value.
      expect(verdict).toEqual({ kind: 'request', message: JsonRpcRequestSchema.parse(built) });
      // Anything not built here (a copy, a value from the other side) is validated, and refused when broken.
      validate.mockClear();
      expect(parseMessage({ ...built }).kind).toBe('request');
      expect(parseMessage({ ...built, id: 1.5 }).kind).toBe('invalid');
      expect(validate).toHaveBeenCalledTimes(2);
    } finally {
      validate.mockRestore();
    }
  });

  it('C7: a notification with a member JSON-RPC does not define is still a notification (never answered)', () => {
    const value = { jsonrpc: '2.0', method: 'notifications/cancelled', extra: 1 };
    expect(parseMessage(value).kind).toBe('notification');
    // The SDK's strict schema would class it invalid, and an invalid message gets an error answer.
    expect(JSONRPCMessageSchema.safeParse(value).success).toBe(false);
  });

  it('C7: an error response with id null (a request whose id could not be read) is an error response', () => {
    const value = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } };
    expect(parseMessage(value).kind).toBe('error');
    expect(JSONRPCMessageSchema.safeParse(value).success).toBe(false);
  });

  it('C7: a request with a malformed _meta is a request, left to the envelope check (-32602)', () => {
    const value = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: 5 } };
    expect(parseMessage(value)).toMatchObject({ kind: 'request', message: { id: 7 } });
    expect(JSONRPCMessageSchema.safeParse(value).success).toBe(false);
  });

  it('C7: ids are strings or integers, as the SDK reads them', () => {
    for (const id of [1.5, true, null, [1], { a: 1 }])
      expect(parseMessage({ jsonrpc: '2.0', id, method: 'tools/list' }).kind, String(id)).toBe(
        'invalid',
      );
    for (const id of ['a', 0, -3])
      expect(parseMessage({ jsonrpc: '2.0', id, method: 'tools/list' }).kind).toBe('request');
  });

  it('C7: an error object needs an integer code and a string message', () => {
    expect(parseMessage({ jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } }).kind).toBe(
      'invalid',
    );
    expect(parseMessage({ jsonrpc: '2.0', id: 1, error: { code: 1 } }).kind).toBe('invalid');
  });
});
