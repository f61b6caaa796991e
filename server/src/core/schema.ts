// Shapes of data as JSON Schema (TypeBox), for views that services return and
// routes declare as their responses (http/contract.ts): closed objects,
// nullable primitives and string enums in the forms fast-json-stringify
// serializes directly. Nothing here knows about HTTP.
import { Type, type TProperties, type TObject, type TUnsafe } from 'typebox';

/**
 * A response object: closed, so the document says exactly what comes back.
 * A `title` names the type in the generated web client (`User`, `FileView`).
 */
export function View<P extends TProperties>(properties: P, options: { title?: string; description?: string } = {}): TObject<P> {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** A string from a fixed list, as `{type: string, enum}` (fast-json-stringify writes it directly; an anyOf of literals would be validated branch by branch). */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

type Primitive = 'string' | 'integer' | 'number' | 'boolean';
type PrimitiveType<K extends Primitive> = K extends 'string' ? string : K extends 'boolean' ? boolean : number;

/**
 * `type: [T, "null"]` rather than `anyOf`: OpenAPI 3.1 reads it the same, and
 * fast-json-stringify serializes it without trying each branch.
 */
export function Nullable<K extends Primitive>(type: K, options: Record<string, unknown> = {}): TUnsafe<PrimitiveType<K> | null> {
  return Type.Unsafe<PrimitiveType<K> | null>({ ...options, type: [type, 'null'] });
}

export const DateTime = Type.String({ format: 'date-time', description: 'RFC 3339, UTC' });

