import { describe, expect, it } from 'vitest';
import { ROLE } from '../../../shared/lookups.ts';
import { holderOptionGroups, holderParam, holderValue, openingHolder, rollupReach, seesOthers, type PersonChoice } from './holders.ts';

const CALAPAN = 3;
const BATANGAS = 4;
const person = (role: number, branchId: number | null = CALAPAN) => ({
  id: 40,
  role_id: role,
  branch_id: branchId,
  full_name: 'Ana Reyes',
});

const people: PersonChoice[] = [
  { id: 40, full_name: 'Ana Reyes', branch_id: CALAPAN, branch: { name: 'Calapan Terminal' } },
  { id: 41, full_name: 'Ben Santos', branch_id: CALAPAN, branch: { name: 'Calapan Terminal' } },
  { id: 42, full_name: 'Carla Dizon', branch_id: BATANGAS, branch: { name: 'Batangas Port' } },
  { id: 43, full_name: 'Dan Lim', branch_id: null, branch: null },
];
const branches = [
  { id: CALAPAN, name: 'Calapan Terminal' },
  { id: BATANGAS, name: 'Batangas Port' },
];

const offered = (user: ReturnType<typeof person>, extra: Array<{ value: string; label: string }> = []) =>
  Object.fromEntries(holderOptionGroups(user, people, branches, extra).map((g) => [g.group, g.items.map((i) => i.label)]));

describe('the Accountability holder picker', () => {
  it('when the auditor picks a holder, then everyone and every branch stock is offered', () => {
    expect(offered(person(ROLE.AUDITOR))).toEqual({
      Me: ['Ana Reyes (me)'],
      People: ['Ben Santos (Calapan Terminal)', 'Carla Dizon (Batangas Port)', 'Dan Lim'],
      'Branch stock': ['Batangas Port (branch stock)', 'Calapan Terminal (branch stock)'],
    });
  });

  it('when a branch head picks a holder, then only their branch’s people and stock are offered', () => {
    expect(offered(person(ROLE.BRANCH_HEAD))).toEqual({
      Me: ['Ana Reyes (me)'],
      People: ['Ben Santos (Calapan Terminal)'],
      'Branch stock': ['Calapan Terminal (branch stock)'],
    });
  });

  it('when a ticketing officer picks a holder, then only their own RAAF is offered, even with the lists at hand', () => {
    expect(offered(person(ROLE.TICKETING_OFFICER))).toEqual({ Me: ['Ana Reyes (me)'] });
    expect(seesOthers(person(ROLE.TICKETING_OFFICER))).toBe(false);
  });

  it('when the server named other holders (the consolidated view, the report shown), then they are offered once each', () => {
    const extra = [
      { value: 'u:41', label: 'Ben Santos' },
      { value: 'u:44', label: 'Eva Cruz' },
      { value: 'b:9', label: 'Lucena Office' },
    ];
    expect(offered(person(ROLE.BRANCH_HEAD), extra)).toEqual({
      Me: ['Ana Reyes (me)'],
      People: ['Ben Santos (Calapan Terminal)', 'Eva Cruz'],
      'Branch stock': ['Calapan Terminal (branch stock)', 'Lucena Office'],
    });
  });

  it('when the lists are loaded only for those who see others, then the RAAF scope decides who does', () => {
    expect(seesOthers(person(ROLE.ADMIN))).toBe(true);
    expect(seesOthers(person(ROLE.SUPERVISOR))).toBe(true);
    expect(seesOthers(person(ROLE.SUPERVISOR, null))).toBe(false);
    expect(seesOthers(undefined)).toBe(false);
  });
});

describe('the holder Accountability opens on', () => {
  it('when the viewer holds pads, then their own RAAF; when they have no branch, then their own at once', () => {
    expect(openingHolder(person(ROLE.BRANCH_HEAD), true)).toBe('u:40');
    expect(openingHolder(person(ROLE.ACCOUNTING, null), undefined)).toBe('u:40');
  });

  it('when a branch viewer holds none, then the branch roll-up if they may read it, else their own', () => {
    expect(openingHolder(person(ROLE.BRANCH_HEAD), false)).toBe(`r:${CALAPAN}`);
    expect(openingHolder(person(ROLE.TICKETING_OFFICER), false)).toBe('u:40');
  });

  it('when whether they hold pads is not known yet, then nothing is opened', () => {
    expect(openingHolder(person(ROLE.BRANCH_HEAD), undefined)).toBeUndefined();
    expect(openingHolder(undefined, false)).toBeUndefined();
  });
});

describe('the branch roll-up view', () => {
  it('when the viewer reads everyone, then any branch; a branch’s own people their branch; others none', () => {
    expect(rollupReach(person(ROLE.CUSTODIAN))).toEqual({ any: true, own: true });
    expect(rollupReach(person(ROLE.CUSTODIAN, null))).toEqual({ any: true, own: false });
    expect(rollupReach(person(ROLE.BRANCH_CUSTODIAN))).toEqual({ any: false, own: true });
    expect(rollupReach(person(ROLE.TICKETING_OFFICER))).toEqual({ any: false, own: false });
    expect(rollupReach(person(ROLE.DRIVER))).toEqual({ any: false, own: false });
  });

  it('when a holder goes into the address and back, then it is the same holder', () => {
    expect(holderParam(holderValue({ user_id: 41 }))).toEqual({ user_id: 41 });
    expect(holderParam(holderValue({ branch_id: CALAPAN }))).toEqual({ branch_id: CALAPAN });
  });
});
