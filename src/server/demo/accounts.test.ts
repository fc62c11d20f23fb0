import { describe, expect, it } from 'vitest';
import { profileSchema } from '../../shared/schemas/accounts.ts';
import { DEMO_ACCOUNTS } from './accounts.ts';

describe('demo accounts', () => {
  it('when a demo account saves its profile unchanged, then its e-mail passes the profile e-mail rule', () => {
    for (const account of DEMO_ACCOUNTS) {
      const result = profileSchema.safeParse({ first_name: account.first_name, last_name: account.last_name, email: account.email });
      expect(result.success, account.email).toBe(true);
    }
  });
});
