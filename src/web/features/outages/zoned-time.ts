import { zonedFormat } from '../../../shared/format.ts';

const WALL_SECOND: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
};

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(instant: Date, zone: string): number {
  const parts = zonedFormat('en-US', WALL_SECOND, zone).formatToParts(instant);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((wall - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local input shows it in APP_TIMEZONE ("2027-01-05T09:30"), whatever zone the device keeps. */
export function zonedInputValue(instant: Date, zone: string): string {
  const shifted = new Date(instant.getTime() + offsetMinutes(instant, zone) * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/** A datetime-local value read as APP_TIMEZONE's wall time, as the API takes it: an ISO date-time with its offset. */
export function zonedInstant(local: string, zone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return null;
  const asUtc = Date.parse(`${local}:00Z`);
  if (Number.isNaN(asUtc)) return null;
  const offset = offsetMinutes(new Date(asUtc - offsetMinutes(new Date(asUtc), zone) * 60_000), zone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
