import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { dateInZone, dayText, dayTimeText, shownDayTime, shownTime, zoneName } from '../../shared/format.ts';
import type { healthResponse } from '../../shared/schemas/health.ts';
import type { z } from 'zod';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';
import { useSession } from './session.ts';

let device: string | undefined;

/**
 * The zone this device keeps; times on screen are APP_TIMEZONE's, named when the two differ. Asked once: making a
 * DateTimeFormat costs a phone milliseconds, and every list card's offline note reads the clock.
 */
export const deviceZone = () => (device ??= Intl.DateTimeFormat().resolvedOptions().timeZone);

/**
 * docs/design.md §8: one clock. Every date and time a screen shows is APP_TIMEZONE's, learnt at sign-in (or from
 * /api/health for a session from before), through the shared formatters, so one event reads the same on every screen.
 */
export function useClock() {
  const known = useSession()?.time_zone;
  const health = useQuery({
    queryKey: queryKeys.health.all,
    queryFn: () => api.get<z.infer<typeof healthResponse>>('health'),
    enabled: !known,
    staleTime: Infinity,
  });
  const zone = known ?? health.data?.time_zone ?? deviceZone();
  return useMemo(() => {
    const device = deviceZone();
    return {
      zone,
      /** "05 Nov 2026". */
      day: (instant: string | null | undefined) => dayText(instant, zone),
      /** "05 Nov 2026 17:30", "(Manila time)" added on a device in another zone. */
      dayTime: (instant: string | null | undefined) => shownDayTime(instant, zone, device),
      /** "14:02", "(Manila time)" added on a device in another zone. */
      time: (instant: string | number | null | undefined) =>
        shownTime(typeof instant === 'number' ? new Date(instant) : instant, zone, device),
      /** Today's date in APP_TIMEZONE, "2026-11-26", as a date input holds it. */
      today: () => dateInZone(new Date(), zone),
      /** "05 Nov 2026 17:30" without the zone, for where the zone is named once beside. */
      plainDayTime: (instant: string | null | undefined) => dayTimeText(instant, zone),
      zoneName: zoneName(zone),
    };
  }, [zone]);
}
