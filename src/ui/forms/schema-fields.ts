/**
 * Form fields from a JSON Schema object: a tool's `inputSchema` or an
 * elicitation's `requestedSchema` (C10). Primitive properties get real
 * inputs; anything else (objects, arrays, unions) gets a JSON text box, so
 * every tool stays callable. Values are kept as the inputs hold them
 * (strings and booleans) and converted once, on submit.
 */
import { z } from 'zod';

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface Field {
  name: string;
  kind: FieldKind;
  label: string;
  description: string | undefined;
  required: boolean;
  /** For `enum`: the allowed values, shown and chosen by index. */
  options: readonly unknown[];
  minimum: number | undefined;
  maximum: number | undefined;
  /** The schema's `default`, as the input holds it. */
  initial: string | boolean;
}

/** What the inputs hold, by property name. */
export type FieldValues = Record<string, string | boolean>;

const PropertySchema = z.looseObject({
  type: z.union([z.string(), z.array(z.string())]).optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  enum: z.array(z.unknown()).min(1).optional(),
  default: z.unknown().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
});

const ObjectSchema = z.looseObject({
  properties: z.record(z.string(), z.unknown()).optional(),
  required: z.array(z.string()).optional(),
});

function kindOf(property: z.infer<typeof PropertySchema>): FieldKind {
  if (property.enum) return 'enum';
  switch (property.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return property.type;
    default:
      return 'json';
  }
}

function initialOf(kind: FieldKind, property: z.infer<typeof PropertySchema>): string | boolean {
  const value = property.default;
  switch (kind) {
    case 'boolean':
      return value === true;
    case 'enum': {
      const index =
        value === undefined
          ? 0
          : (property.enum ?? []).findIndex((option) => Object.is(option, value));
      return String(Math.max(0, index));
    }
    case 'json':
      return value === undefined ? '' : JSON.stringify(value);
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

/** The fields of an object schema, in property order. Unreadable schemas give no fields. */
export function fieldsOf(schema: unknown): Field[] {
  const object = ObjectSchema.safeParse(schema);
  if (!object.success) return [];
  const required = new Set(object.data.required ?? []);
  return Object.entries(object.data.properties ?? {}).map(([name, raw]) => {
    const parsed = PropertySchema.safeParse(raw);
    const property = parsed.success ? parsed.data : {};
    const kind = parsed.success ? kindOf(property) : 'json';
    return {
      name,
      kind,
      label: property.title ?? name,
      description: property.description,
      required: required.has(name),
      options: property.enum ?? [],
      minimum: property.minimum,
      maximum: property.maximum,
      initial: initialOf(kind, property),
    };
  });
}

/** The inputs' starting values: each schema default, or empty. */
export function initialValues(fields: readonly Field[]): FieldValues {
  return Object.fromEntries(fields.map((field) => [field.name, field.initial]));
}

/** How an enum option is shown in a select. */
export function optionLabel(option: unknown): string {
  return typeof option === 'string' ? option : JSON.stringify(option);
}

export type Collected =
  { ok: true; value: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/**
 * Converts input values to the JSON object the schema describes. Empty
 * optional fields are left out; the browser's own constraint checks
 * (required, min, max, step) have already run when a form submits.
 */
export function collectValues(fields: readonly Field[], values: FieldValues): Collected {
  // Entries, not `obj[name] =`: names come from the server ("__proto__").
  const entries: [string, unknown][] = [];
  const errors: [string, string][] = [];
  for (const field of fields) {
    const raw = Object.hasOwn(values, field.name) ? values[field.name] : field.initial;
    if (field.kind === 'boolean') {
      entries.push([field.name, raw === true]);
      continue;
    }
    const text = typeof raw === 'string' ? raw : String(raw);
    if (field.kind === 'enum') {
      entries.push([field.name, field.options[Number(text)] ?? field.options[0]]);
      continue;
    }
    if (text.trim() === '') {
      if (field.required) errors.push([field.name, 'Required']);
      continue;
    }
    if (field.kind === 'number' || field.kind === 'integer') {
      const number = Number(text);
      if (!Number.isFinite(number)) errors.push([field.name, 'Not a number']);
      else if (field.kind === 'integer' && !Number.isInteger(number))
        errors.push([field.name, 'Must be a whole number']);
      else entries.push([field.name, number]);
    } else if (field.kind === 'json') {
      try {
        entries.push([field.name, JSON.parse(text) as unknown]);
      } catch {
        errors.push([field.name, 'Not valid JSON']);
      }
    } else {
      entries.push([field.name, text]);
    }
  }
  return errors.length === 0
    ? { ok: true, value: Object.fromEntries(entries) }
    : { ok: false, errors: Object.fromEntries(errors) };
}
