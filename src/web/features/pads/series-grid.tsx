import { ScrollArea, Stack, Text } from '@mantine/core';
import { abbreviateSeries } from '../../../shared/format.ts';
import { SERIES_ENTRY } from '../../../shared/lookups.ts';
import type { SeriesEntry } from '../../../shared/pad-status.ts';
import classes from './series-grid.module.css';

const statusName = (entry: SeriesEntry) => (entry.status === SERIES_ENTRY.USED ? 'Used' : 'Not Used');

/**
 * docs/spec.md §2 series grid: one circle per receipt number, filled when used, with the abbreviated number
 * under it and the full number as the hover title. With onToggle the circles are buttons; `highlight`
 * rings one number (Find receipt).
 */
export function SeriesGrid({ series, onToggle, highlight }: { series: SeriesEntry[]; onToggle?: (number: number) => void; highlight?: number }) {
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Series
      </Text>
      <div className={classes.legend} aria-label="Legend">
        <span className={classes.legendItem}>
          <span className={classes.circle} aria-hidden /> Not Used
        </span>
        <span className={classes.legendItem}>
          <span className={`${classes.circle} ${classes.used}`} aria-hidden /> Used
        </span>
      </div>
      <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, 'aria-label': 'Series, scrollable' }}>
        <div className={classes.grid} role="list" aria-label="Series">
          {series.map((entry) => {
            const used = entry.status === SERIES_ENTRY.USED;
            const content = (
              <>
                <span className={`${classes.circle} ${used ? classes.used : ''}`} aria-hidden />
                <span className={classes.label}>{abbreviateSeries(entry.number)}</span>
              </>
            );
            return (
              <div role="listitem" key={entry.number}>
                {onToggle ? (
                  <button
                    type="button"
                    className={classes.entry}
                    title={String(entry.number)}
                    aria-pressed={used}
                    aria-label={`${entry.number}: ${statusName(entry)}, shown as ${abbreviateSeries(entry.number)}`}
                    onClick={() => onToggle(entry.number)}
                    style={{ width: '100%' }}
                  >
                    {content}
                  </button>
                ) : (
                  <div
                    className={`${classes.entry} ${entry.number === highlight ? classes.highlight : ''}`}
                    role="img"
                    title={String(entry.number)}
                    aria-label={`${entry.number}: ${statusName(entry)}`}
                    aria-current={entry.number === highlight ? 'true' : undefined}
                  >
                    {content}
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </ScrollArea.Autosize>
    </Stack>
  );
}
