import { z } from 'zod';

/** Which steps are done: each is true once the installation has at least one of that thing. */
export const setupStatus = z
  .object({
    company: z.boolean(),
    location: z.boolean(),
    head_office: z.boolean(),
    route: z.boolean(),
    users: z.boolean(),
    pads: z.boolean(),
  })
  .meta({ id: 'SetupStatus' });
export type SetupStatus = z.infer<typeof setupStatus>;
