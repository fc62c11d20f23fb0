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

/** The route's zod schema as JSON Schema, compiled by fast-json-stringify on the route's first answer. */
function compiledStringify(schema: z.ZodType): Stringify {
  let stringify: Stringify | null = null;
  return (data) => {
    // Zod's JSON Schema and fast-json-stringify's input type are two names of the same draft-7 document.
    stringify ??= fastJson(
      // -- z.toJSONSchema answers draft-7 JSON Schema, which is what fast-json-stringify takes; the two libraries type it apart.
      z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as Parameters<typeof fastJson>[0],
    );
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
