/** Forms generated from JSON Schema (tool inputSchema, elicitation requestedSchema, C10). */
import { describe, expect, it } from 'vitest';
import { collectValues, fieldsOf, initialValues } from '../../../src/ui/forms/schema-fields.ts';

const schema = {
  type: 'object',
  properties: {
    service: { type: 'string', default: 'checkout', description: 'Service to deploy' },
    environment: { type: 'string', enum: ['staging', 'production'], default: 'production' },
    seconds: { type: 'number', minimum: 0, maximum: 600, default: 3 },
    approve: { type: 'boolean', title: 'Approve roll-out' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['approve'],
};

describe('schema fields', () => {
  it('C10: one field per property, of the right kind, with defaults and labels', () => {
    const fields = fieldsOf(schema);
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ['service', 'string'],
      ['environment', 'enum'],
      ['seconds', 'number'],
      ['approve', 'boolean'],
      ['tags', 'json'],
    ]);
    expect(fields.find((f) => f.name === 'approve')).toMatchObject({
      required: true,
      label: 'Approve roll-out',
    });
    expect(initialValues(fields)).toMatchObject({
      service: 'checkout',
      seconds: '3',
      approve: false,
    });
  });

  it('converts what the inputs hold back into JSON values', () => {
    const fields = fieldsOf(schema);
    const collected = collectValues(fields, {
      ...initialValues(fields),
      seconds: '2.5',
      approve: true,
      tags: '["a"]',
    });
    expect(collected).toEqual({
      ok: true,
      value: expect.objectContaining({
        service: 'checkout',
        seconds: 2.5,
        approve: true,
        tags: ['a'],
      }),
    });
  });

  it('reports, per field, a number that is not a number and a missing required value', () => {
    const fields = fieldsOf(schema);
    const bad = collectValues(fields, { ...initialValues(fields), seconds: 'soon' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(Object.keys(bad.errors)).toContain('seconds');
    const required = fieldsOf({
      type: 'object',
      properties: { note: { type: 'string' } },
      required: ['note'],
    });
    expect(collectValues(required, { note: '  ' })).toEqual({
      ok: false,
      errors: { note: 'Required' },
    });
  });
});
