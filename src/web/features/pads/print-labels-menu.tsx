import { Menu } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { countText } from '../../../shared/format.ts';
import { AppButton } from '../../components/app-button.tsx';
import { notify } from '../../components/notify.ts';
import { api, errorMessage, openBlob } from '../../lib/api.ts';
import { padQueries, type PadListParams } from './api.ts';

/** The most pads one label sheet takes (pad-labels' `ids`). */
const MAX_LABELS = 500;
const PAGE = 100;
const padsText = (n: number) => `${countText(n)} ${n === 1 ? 'pad' : 'pads'}`;

/**
 * docs/design.md §9 labels: the label sheet PDF of the checked pads or, with none checked, of every pad the filtered
 * list holds (a branch's or a person's pads, a route), opened in a new tab to print.
 */
export function PrintLabelsMenu({
  picked,
  params,
  listed,
}: {
  picked: number[];
  params: PadListParams;
  /** How many pads the filtered list holds; null while the list is not narrowed by a filter or search. */
  listed: number | null;
}) {
  const queryClient = useQueryClient();
  const whole = picked.length === 0 && listed !== null && listed > 0 && listed <= MAX_LABELS;
  const count = picked.length > 0 ? picked.length : whole ? listed : 0;

  const listedIds = async () => {
    const ids: number[] = [];
    for (let page = 1; ids.length < (listed ?? 0); page += 1) {
      const { data } = await queryClient.fetchQuery(padQueries.list({ ...params, page, perPage: PAGE }));
      if (data.length === 0) break;
      ids.push(...data.map((pad) => pad.id));
    }
    return ids;
  };

  const print = async (size: 'a4' | '4x6') => {
    try {
      const ids = picked.length > 0 ? picked : await listedIds();
      openBlob(await api.file('pad-labels', { ids: ids.join(','), size }), 'pad-labels.pdf', false);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  };

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <AppButton variant="secondary" leftSection={<IconPrinter size={16} />} disabled={count === 0}>
          Print labels{count > 0 ? ` (${count})` : ''}
        </AppButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{picked.length > 0 ? `${padsText(count)} checked` : `All ${padsText(count)} listed`}</Menu.Label>
        <Menu.Item onClick={() => void print('a4')}>A4 sheet</Menu.Item>
        <Menu.Item onClick={() => void print('4x6')}>4×6 in labels</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
