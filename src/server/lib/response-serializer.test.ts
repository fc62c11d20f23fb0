import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer.ts';

const padSchema = z.object({
  id: z.number().int(),
  series_number: z.string(),
  holder: z.object({ id: z.number().int(), full_name: z.string() }).nullable(),
  ranges: z.array(z.tuple([z.number().int(), z.number().int()])),
});

async function appAnswering(check: boolean, data: unknown) {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(check));
  app.get('/pad', { schema: { response: { 200: z.object({ data: padSchema }) } } }, async () => ({ data }) as never);
  await app.ready();
  return app;
}

const pad = { id: 7, series_number: '100000001 - 100000050', holder: { id: 3, full_name: 'Lina Cruz' }, ranges: [[100000001, 100000050]] };

describe('response serializer', () => {
  it('when an answer fits its schema, then the compiled serializer writes what zod would, without properties the schema does not name', async () => {
    for (const check of [true, false]) {
      const app = await appAnswering(check, { ...pad, password_hash: 'secret' });
      const res = await app.inject({ method: 'GET', url: '/pad' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(JSON.stringify({ data: pad }));
      await app.close();
    }
  });

  it('when nullable objects, written inline or named, are null or not, then the compiled serializer writes what zod would', async () => {
    const person = z.object({ id: z.number().int(), full_name: z.string() }).meta({ id: 'TestPerson' });
    const schema = z.object({ data: z.array(z.object({ id: z.number().int(), holder: person.nullable(), courier: person.nullable() })) });
    const rows = [
      { id: 1, holder: { id: 3, full_name: 'Lina Cruz' }, courier: null },
      { id: 2, holder: null, courier: { id: 4, full_name: 'Ramon Dela Peña "Jr."', badge: 'x' } },
    ];
    for (const check of [true, false]) {
      const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
      app.setSerializerCompiler(responseSerializerCompiler(check));
      app.get('/rows', { schema: { response: { 200: schema } } }, async () => ({ data: rows }) as never);
      const res = await app.inject({ method: 'GET', url: '/rows' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(JSON.stringify(schema.parse({ data: rows })));
      expect(res.json().data[1].courier).toEqual({ id: 4, full_name: 'Ramon Dela Peña "Jr."' });
      await app.close();
    }
  });

  it('when the tests check answers and one does not fit its schema, then it is refused with a 500 naming the route', async () => {
    const app = await appAnswering(true, { ...pad, holder: { id: 3 } });
    const res = await app.inject({ method: 'GET', url: '/pad' });
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toMatch(/GET \/pad answer does not fit its response schema/);
    await app.close();
  });
});
