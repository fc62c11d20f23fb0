import { z } from 'zod';

/** GET /api/health: 200 when the database answers, 503 when it does not; with APP_TIMEZONE, the zone of every time shown. */
export const healthResponse = z.object({ status: z.string(), database: z.string(), time_zone: z.string() }).meta({ id: 'Health' });
