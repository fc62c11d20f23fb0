import { ScrollArea, Stack, Text } from '@mantine/core';
import { useRef, useState, type MouseEvent, type PointerEvent, type ReactNode } from 'react';
import { abbreviateSeries } from '../../../shared/format.ts';
import { SERIES_ENTRY } from '../../../shared/lookups.ts';
import type { SeriesEntry } from '../../../shared/pad-status.ts';
import { pendingAt, pendingWord, type PendingOutcome } from '../../../shared/pending-outcomes.ts';
import { nextSelection, span, type NumberRange } from './series-selection.ts';
import classes from './series-grid.module.css';

const STATES = [
  { status: SERIES_ENTRY.NOT_USED, name: 'Not Used', className: '' },
  { status: SERIES_ENTRY.USED, name: 'Used', className: classes.used },
  { status: SERIES_ENTRY.CANCELLED, name: 'Cancelled', className: classes.cancelled },
  { status: SERIES_ENTRY.LOST, name: 'Lost', className: classes.lost },
] as const;

const stateOf = (entry: SeriesEntry) => STATES.find((state) => state.status === entry.status) ?? STATES[0];

/** An entry's state as the grid says it: "Not Used, cancellation pending" while a request for it waits (docs/design.md §9). */
function stateName(entry: SeriesEntry, pending: readonly PendingOutcome[]): string {
  const waiting = entry.status === SERIES_ENTRY.NOT_USED ? pendingAt(pending, entry.number) : null;
  return waiting ? `${stateOf(entry).name}, ${pendingWord(waiting.outcome)}` : stateOf(entry).name;
}

const inRange = (range: NumberRange | null | undefined, number: number) => range != null && number >= range.from && number <= range.to;

interface SelectProps {
  selected: NumberRange | null;
  onSelect: (range: NumberRange | null) => void;
}

/**
 * docs/spec.md §2 series grid: one circle per receipt number (not used, used, cancelled or lost, after docs/design.md §9), with the
 * abbreviated number under it and the full number as the hover title; a tap shows the full number under the legend,
 * as a phone has no hover. With onToggle the circles flip between Not Used and Used (cancelled and lost ones stay);
 * with `select` a click picks a number, a second click (or shift-click, or a mouse drag) a range. `highlight` rings
 * one number (Find receipt).
 */
export function SeriesGrid({
  series,
  onToggle,
  select,
  highlight,
  pending = [],
  children,
}: {
  series: SeriesEntry[];
  onToggle?: (number: number) => void;
  select?: SelectProps;
  highlight?: number;
  /** Cancellations and losses waiting for approval: their numbers are marked, and named in the labels. */
  pending?: readonly PendingOutcome[];
  /** Shown under the circles, kept in view while they scroll: the selection's actions. */
  children?: ReactNode;
}) {
  const [shownNumber, setShown] = useState<number | null>(null);
  const shown = series.find((entry) => entry.number === shownNumber) ?? null;
  const anchor = useRef<number | null>(null);
  const drag = useRef<{ start: number; moved: boolean } | null>(null);

  const show = (entry: SeriesEntry) => setShown(entry.number);

  const pick = (entry: SeriesEntry, event: MouseEvent) => {
    show(entry);
    if (!select || drag.current?.moved) return;
    const next = nextSelection(select.selected, anchor.current, entry.number, event.shiftKey);
    if (next === null) anchor.current = null;
    else if (next.from === next.to) anchor.current = entry.number;
    select.onSelect(next);
  };

  /* A mouse drag across circles picks the run; the click after it (if any) changes nothing. */
  const pressDown = (entry: SeriesEntry, event: PointerEvent) => {
    drag.current =
      select && event.pointerType === 'mouse' && event.button === 0 && !event.shiftKey ? { start: entry.number, moved: false } : null;
  };
  const dragOver = (entry: SeriesEntry, event: PointerEvent) => {
    const current = drag.current;
    if (!select || !current || event.buttons !== 1 || entry.number === current.start) return;
    current.moved = true;
    anchor.current = current.start;
    select.onSelect(span(current.start, entry.number));
  };
  const release = () => setTimeout(() => (drag.current = null));

  return (
    <Stack gap="xs" onPointerUp={release}>
      <Text size="sm" fw={500}>
        Series
      </Text>
      <div className={classes.legend} aria-label="Legend">
        {STATES.map((state) => (
          <span key={state.status} className={classes.legendItem}>
            <span className={`${classes.circle} ${state.className}`} aria-hidden /> {state.name}
          </span>
        ))}
        {pending.length > 0 ? (
          <span className={classes.legendItem}>
            <span className={`${classes.circle} ${classes.pending}`} aria-hidden /> Pending approval
          </span>
        ) : null}
      </div>
      <Text size="sm" aria-live="polite" data-testid="series-shown" mih={20}>
        {shown ? (
          <>
            Receipt no. <strong>{shown.number}</strong> · {stateName(shown, pending)}
          </>
        ) : (
          <Text span c="dimmed" size="sm">
            {select ? 'Tap the first and the last number of a range (or shift-click, or drag).' : 'Tap a circle to see its full number.'}
          </Text>
        )}
      </Text>
      <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, 'aria-label': 'Series, scrollable' }}>
        <div className={classes.grid} role="list" aria-label="Series">
          {series.map((entry) => {
            const state = stateOf(entry);
            const name = stateName(entry, pending);
            const waiting = name !== state.name;
            const picked = inRange(select?.selected, entry.number);
            const content = (
              <>
                <span className={`${classes.circle} ${state.className} ${waiting ? classes.pending : ''}`} aria-hidden />
                <span className={classes.label}>{abbreviateSeries(entry.number)}</span>
              </>
            );
            const togglable = entry.status === SERIES_ENTRY.NOT_USED || entry.status === SERIES_ENTRY.USED;
            let item;
            if (onToggle) {
              item = (
                <button
                  type="button"
                  className={classes.entry}
                  title={String(entry.number)}
                  aria-pressed={entry.status === SERIES_ENTRY.USED}
                  aria-label={`${entry.number}: ${name}, shown as ${abbreviateSeries(entry.number)}`}
                  aria-disabled={!togglable || undefined}
                  onClick={() => {
                    show(entry);
                    if (togglable) onToggle(entry.number);
                  }}
                >
                  {content}
                </button>
              );
            } else if (select) {
              item = (
                <button
                  type="button"
                  className={`${classes.entry} ${picked ? classes.picked : ''}`}
                  title={String(entry.number)}
                  aria-pressed={picked}
                  aria-label={`${entry.number}: ${name}, shown as ${abbreviateSeries(entry.number)}`}
                  onClick={(event) => pick(entry, event)}
                  onPointerDown={(event) => pressDown(entry, event)}
                  onPointerEnter={(event) => dragOver(entry, event)}
                >
                  {content}
                </button>
              );
            } else {
              item = (
                <div
                  className={`${classes.entry} ${classes.tappable} ${entry.number === highlight ? classes.highlight : ''}`}
                  role="img"
                  title={String(entry.number)}
                  aria-label={`${entry.number}: ${name}`}
                  aria-current={entry.number === highlight ? 'true' : undefined}
                  onClick={() => show(entry)}
                >
                  {content}
                </div>
              );
            }
            return (
              <div role="listitem" key={entry.number}>
                {item}
              </div>
            );
          })}
        </div>
      </ScrollArea.Autosize>
      {children ? <div className={classes.actions}>{children}</div> : null}
    </Stack>
  );
}
