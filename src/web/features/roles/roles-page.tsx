import { Badge, TextInput } from '@mantine/core';
import { ADMIN_MSG } from '../../../shared/messages.ts';
import { roleSchema, type Role } from '../../../shared/schemas/roles.ts';
import { CrudPage, type CrudScreen } from '../../components/crud-page.tsx';
import { roleApi, roleCache } from './api.ts';

type Values = { name: string };

const kind = (row: Role) => (row.is_system ? 'System' : 'Custom');

const screen: CrudScreen<Role, Values> = {
  title: 'Roles',
  Noun: 'Role',
  searchPlaceholder: 'Search by role name',
  emptyText: ADMIN_MSG.noRoles,
  columns: [
    { key: 'id', header: 'ID', sortable: true, render: (r) => r.id, width: 70 },
    { key: 'name', header: 'Name', sortable: true, render: (r) => r.name },
    {
      key: 'kind',
      header: 'Type',
      render: (r) => (
        <Badge variant="light" color={r.is_system ? 'blue' : 'gray'}>
          {kind(r)}
        </Badge>
      ),
    },
  ],
  cache: roleCache,
  fetchPage: roleApi.page,
  form: {
    schema: () => roleSchema,
    values: (row) => ({ name: row?.name ?? '' }),
    fields: (form) => <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />,
  },
  details: (row) => [
    { label: 'ID', value: row.id },
    { label: 'Name', value: row.name },
    { label: 'Type', value: row.is_system ? 'System role (access rules of its id; can be renamed, not deleted)' : 'Custom role' },
  ],
  save: (values, row) => (row ? roleApi.update(row.id, values) : roleApi.create(values)),
  remove: (row) => roleApi.remove(row.id),
  canDelete: (row) => !row.is_system,
};

/** docs/design.md §5 Roles screen (/roles, roles 1 and 2): list, add, rename, delete. */
export function RolesPage() {
  return <CrudPage screen={screen} rowName={(r) => r.name} />;
}
