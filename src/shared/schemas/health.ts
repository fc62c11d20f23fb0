import { z } from 'zod';

/** GET /api/health: 200 when the database answers, 503 when it does not. */
export const healthResponse = z.object({ status: z.string(), database: z.string() }).meta({ id: 'Health' });
