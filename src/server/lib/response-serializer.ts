import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { z } from 'zod';

type Stringify = (data: unknown) => string;

/** An answer that does not fit its route's response schema: a server bug, answered 500 like any other. */
export class ResponseShapeError extends Error {
  constructor(method: string, url: string, detail: string) {
    super(`The ${method} ${url} answer does not fit its response schema: ${detail}`);
  }
}

type JsonSchema = { [key: string]: unknown };

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Zod writes a nullable object as `anyOf: [object, null]`, which fast-json-stringify answers by running the whole
 * object's validator on every value; as `type: ['object', 'null']` the same bytes are written after a null check.
 * Only an anyOf of one plain object schema (or a reference to one) and null is rewritten.
 */
function nullableObjectsAsTypes(node: unknown, definitions: Record<string, JsonSchema>): unknown {
  if (Array.isArray(node)) return node.map((item) => nullableObjectsAsTypes(item, definitions));
  if (!isSchema(node)) return node;
  const entries = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, nullableObjectsAsTypes(value, definitions)]));
  const { anyOf, ...siblings } = entries;
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || Object.keys(siblings).length > 0) return entries;
  const nullAt = anyOf.findIndex((option) => isSchema(option) && option.type === 'null' && Object.keys(option).length === 1);
  const other: unknown = anyOf[1 - nullAt];
  if (nullAt === -1 || !isSchema(other)) return entries;
  const ref = typeof other.$ref === 'string' && Object.keys(other).length === 1 ? /^#\/definitions\/(.+)$/.exec(other.$ref) : null;
  const target = ref ? definitions[ref[1]] : other;
  const plainObject =
    isSchema(target) &&
    target.type === 'object' &&
    !('anyOf' in target) &&
    !('oneOf' in target) &&
    !('allOf' in target) &&
    !('$ref' in target);
  return plainObject ? { ...target, type: ['object', 'null'] } : entries;
}

/** The route's zod schema as JSON Schema, compiled by fast-json-stringify on the route's first answer. */
function compiledStringify(schema: z.ZodType): Stringify {
  let stringify: Stringify | null = null;
  return (data) => {
    if (!stringify) {
      const document = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as JsonSchema;
      const written = isSchema(document.definitions) ? (document.definitions as Record<string, JsonSchema>) : {};
      const definitions = Object.fromEntries(
        Object.entries(written).map(([name, definition]) => [name, nullableObjectsAsTypes(definition, written) as JsonSchema]),
      );
      // -- z.toJSONSchema answers draft-7 JSON Schema, which is what fast-json-stringify takes; the two libraries type it apart.
      stringify = fastJson(nullableObjectsAsTypes(document, definitions) as Parameters<typeof fastJson>[0]);
    }
    return stringify(data);
  };
}

/**
 * Answers are written by a serializer compiled from each route's response schema (as fastify/demo does with
 * its schemas), which costs a quarter of checking them with zod and stringifying. With `check` on, as in the
 * tests, every answer is also checked with zod and must come out byte for byte as zod would write it, so a
 * route whose data or schema drifted fails its tests instead of sending a quiet difference.
 */
export function responseSerializerCompiler(check: boolean): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) => {
    const stringify = compiledStringify(schema);
    if (!check) return stringify;
    return (data) => {
      const result = schema.safeEncode(data);
      if (!result.success) throw new ResponseShapeError(method, url, z.prettifyError(result.error));
      const expected = JSON.stringify(result.data);
      const written = stringify(data);
      if (written !== expected)
        throw new ResponseShapeError(
          method,
          url,
          `the compiled serializer wrote ${written.slice(0, 200)} where zod writes ${expected.slice(0, 200)}`,
        );
      return written;
    };
  };
}
