import { type IntegerOptions, Kind, type SchemaOptions, type TInteger, type TObject, type TOptional, type TSchema, type TString, type TUnsafe } from "@sinclair/typebox";
// The builders as a namespace (see catalog/model.ts).
import * as Type from "@sinclair/typebox";

/**
 * Schema helpers for the model files. Each rule a client should see (a length, a format, an integer
 * parameter) is declared once, in the schema the OpenAPI document shows; Elysia validates a lenient copy,
 * so the services keep answering with their own codes and their own counting (code points, not UTF-16).
 */

/**
 * A JSON integer. Elysia's `t.Integer` is a string-or-integer union (with `default: 0`) made for
 * coercing query strings; in a response or a document it is just wrong, so this is TypeBox's own.
 */
export const Integer = (options?: IntegerOptions): TInteger => Type.Integer(options);

/**
 * One of `values`, documented as a string `enum`: the schema Elysia's `t.UnionEnum` makes (with its `default`,
 * the first value, and its kind, which Elysia validates), made without Elysia so that the data routes' models
 * load before it: a start composes Elysia's routes after its first answers (src/app/app.ts).
 */
export function unionEnum<const T extends readonly [string, ...string[]]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return { default: values[0], ...options, [Kind]: "UnionEnum", type: "string", enum: values } as unknown as TUnsafe<T[number]>;
}

/** The schema the document shows for a schema Elysia validates with (see `lenient`, `queryStrings`). */
const DOCUMENTED = Symbol.for("foodapi.documented");

/** What the OpenAPI document shows for `schema`: its documented original when it is a lenient copy. */
export function documentedSchema<T>(schema: T): T {
  return ((schema as Record<symbol, unknown> | undefined)?.[DOCUMENTED] as T | undefined) ?? schema;
}

/** Keywords of a string that a service checks itself, with its own error code and counting. */
const SERVICE_CHECKED = ["minLength", "maxLength", "pattern", "format"] as const;

/**
 * A copy of `schema` without the string rules the services check themselves, for Elysia to validate
 * with; the document shows `schema`. Same shape, same static type.
 */
export function lenient<T extends TSchema>(schema: T): T {
  const copy = relax(schema) as T;
  Object.defineProperty(copy, DOCUMENTED, { value: schema, enumerable: false });
  return copy;
}

function relax(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relax);
  if (typeof node !== "object" || node === null) return node;
  const copy: Record<PropertyKey, unknown> = {};
  // Reflect.ownKeys: TypeBox keeps its Kind and Optional markers under symbols.
  for (const key of Reflect.ownKeys(node)) copy[key] = relax((node as Record<PropertyKey, unknown>)[key]);
  if (copy.type === "string") for (const keyword of SERVICE_CHECKED) delete copy[keyword];
  return copy;
}

/**
 * `validated` for Elysia, `documented` for the document: for a body whose rules the service checks in an
 * order of its own (a field that must be refused with its own code, a field with two accepted names).
 */
export function documentedAs<T extends TSchema>(validated: T, documented: TSchema): T {
  Object.defineProperty(validated, DOCUMENTED, { value: documented, enumerable: false });
  return validated;
}

type QueryStrings<P> = TObject<{ [K in keyof P]: TOptional<TString> }>;

/**
 * The query as it arrives: every parameter an optional string, parsed and checked by the service (its
 * messages, its clamping, empty meaning absent). The document shows `schema` with the real types.
 */
export function queryStrings<P extends Record<string, TSchema>>(schema: TObject<P>): QueryStrings<P> {
  const properties = Object.fromEntries(Object.keys(schema.properties).map((name) => [name, Type.Optional(Type.String())]));
  const copy = Type.Object(properties) as unknown as QueryStrings<P>;
  Object.defineProperty(copy, DOCUMENTED, { value: schema, enumerable: false });
  return copy;
}
