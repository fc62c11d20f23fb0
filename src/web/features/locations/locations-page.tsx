import { TextInput } from '@mantine/core';
import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { Location } from '../../../shared/schemas/locations.ts';
import { locationSchema } from '../../../shared/schemas/locations.ts';
import { LOCATION_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import { tableColumns } from '../../components/list-columns.tsx';
import { CrudPage, type CrudScreen } from '../../components/crud-page.tsx';
import { locationApi, locationCache } from './api.ts';

type Values = { name: string };

const screen: CrudScreen<Location, Values> = {
  title: 'Locations',
  Noun: 'Location',
  searchPlaceholder: 'Search by location name',
  emptyText: ADMIN_MSG.noLocations,
  columns: tableColumns(LOCATION_LIST_COLUMNS),
  exportFile: {
    fileBase: 'Locations',
    download: locationApi.file,
  },
  cache: locationCache,
  fetchPage: locationApi.page,
  form: {
    schema: () => locationSchema,
    values: (row) => ({ name: row?.name ?? '' }),
    fields: (form) => <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />,
  },
  details: (row) => [{ label: 'Name', value: row.name }],
  save: (values, row) => (row ? locationApi.update(row.id, values) : locationApi.create(values)),
  remove: (row) => locationApi.remove(row.id),
};

/** docs/spec.md §2 Locations (/locations, roles 1 and 2). */
export function LocationsPage() {
  return <CrudPage screen={screen} rowName={(r) => r.name} />;
}
