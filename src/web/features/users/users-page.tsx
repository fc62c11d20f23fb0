import { Checkbox, PasswordInput, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ADMIN_MSG, MSG } from '../../../shared/messages.ts';
import { USER_STATUS } from '../../../shared/lookups.ts';
import { USER_LABELS, createUserSchema, updateUserSchema, type AdminUser } from '../../../shared/schemas/users.ts';
import { AppButton } from '../../components/app-button.tsx';
import { confirmAction } from '../../components/confirm.ts';
import { SelectField } from '../../components/form-fields.tsx';
import { notify } from '../../components/notify.ts';
import { USER_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import { tableColumns } from '../../components/list-columns.tsx';
import { CrudPage, type CrudScreen, type Runner } from '../../components/crud-page.tsx';
import { ApiError, errorMessage, failureMessage } from '../../lib/api.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useBadgeCard, useResetUserPassword, userApi, userCache, useToggleUserActivation } from './api.ts';

type Values = {
  first_name: string;
  middle_name: string;
  last_name: string;
  contact_number: string;
  email: string;
  password: string;
  send_set_password_email: boolean;
  branch_id: string | null;
  role_id: string | null;
  user_status_id: string | null;
};

const idText = (id: number | null) => (id === null ? null : String(id));
const isActive = (row: AdminUser) => row.status?.name === 'Active';

/** docs/spec.md §2 Users (/users, roles 1 and 2): the staff accounts, with password reset and activation. */
export function UsersPage() {
  const resetUserPassword = useResetUserPassword();
  const toggleActivation = useToggleUserActivation();
  const badgeCard = useBadgeCard();
  const roles = useQuery(lookupQueries.roles());
  const branches = useQuery(lookupQueries.branches());
  const statuses = useQuery(lookupQueries.userStatuses());

  const resetPassword = async (row: AdminUser, run: Runner) => {
    if (!(await confirmAction(ADMIN_MSG.confirmResetUserPassword))) return;
    await run(ADMIN_MSG.resettingPassword, async () => {
      try {
        await resetUserPassword.mutateAsync(row.id);
        notify.success(MSG.resetLinkSentToUser);
      } catch (error) {
        notify.error(failureMessage(error, ADMIN_MSG.resetUserPasswordFailed));
      }
    });
  };

  const printBadge = async (row: AdminUser) => {
    const tab = window.open('about:blank', '_blank');
    try {
      const { data } = await badgeCard.mutateAsync(row.id);
      if (tab) tab.location.href = data.url;
      else window.location.assign(data.url);
    } catch (error) {
      tab?.close();
      notify.error(errorMessage(error, ADMIN_MSG.badgeCardFailed));
    }
  };

  const toggle = async (row: AdminUser, run: Runner) => {
    if (!(await confirmAction(ADMIN_MSG.confirmToggleUser))) return;
    await run(ADMIN_MSG.togglingUser, async () => {
      try {
        const result = await toggleActivation.mutateAsync(row.id);
        notify.success(result.message);
      } catch (error) {
        notify.error(error instanceof ApiError && error.status === 409 ? error.message : failureMessage(error, ADMIN_MSG.toggleUserFailed));
      }
    });
  };

  const screen: CrudScreen<AdminUser, Values> = {
    title: 'Users',
    Noun: 'User',
    searchPlaceholder: 'Search by name or email',
    emptyText: ADMIN_MSG.noUsers,
    columns: tableColumns(USER_LIST_COLUMNS, {
      status: {
        render: (r) => (
          <Text size="sm" fw={600} c={r.user_status_id === USER_STATUS.ACTIVE ? 'teal' : 'dimmed'}>
            {r.status?.name ?? '-'}
          </Text>
        ),
      },
    }),
    exportFile: {
      fileBase: 'Users',
      download: ({ search, filter, perPage, sort, order }, format) => userApi.file({ search, role: filter, perPage, sort, order }, format),
    },
    cache: userCache,
    fetchPage: ({ page, search, filter, perPage, sort, order }) => userApi.page({ page, search, role: filter, perPage, sort, order }),
    filter: { label: 'Role', options: roles.data },
    form: {
      schema: (mode) => (mode === 'add' ? createUserSchema : updateUserSchema),
      values: (row) => ({
        first_name: row?.first_name ?? '',
        middle_name: row?.middle_name ?? '',
        last_name: row?.last_name ?? '',
        contact_number: row?.contact_number ?? '',
        email: row?.email ?? '',
        password: '',
        send_set_password_email: false,
        branch_id: row ? idText(row.branch_id) : null,
        role_id: row ? idText(row.role_id) : null,
        user_status_id: row ? idText(row.user_status_id) : null,
      }),
      fields: (form, mode) => (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label={USER_LABELS.first_name} withAsterisk data-autofocus {...form.getInputProps('first_name')} />
            <TextInput label={USER_LABELS.middle_name} {...form.getInputProps('middle_name')} />
            <TextInput label={USER_LABELS.last_name} withAsterisk {...form.getInputProps('last_name')} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={USER_LABELS.contact_number}
              withAsterisk
              placeholder="0917-123-4567"
              {...form.getInputProps('contact_number')}
            />
            <TextInput label={USER_LABELS.email} type="email" withAsterisk {...form.getInputProps('email')} />
          </SimpleGrid>
          {mode === 'add' ? (
            <>
              <Checkbox
                label={USER_LABELS.send_set_password_email}
                description="The user chooses the password from the link; otherwise they change yours at first sign-in."
                {...form.getInputProps('send_set_password_email', { type: 'checkbox' })}
              />
              {form.values.send_set_password_email ? null : (
                <PasswordInput label={USER_LABELS.password} withAsterisk autoComplete="new-password" {...form.getInputProps('password')} />
              )}
            </>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <SelectField label={USER_LABELS.branch_id} withAsterisk options={branches.data} {...form.getInputProps('branch_id')} />
            <SelectField label={USER_LABELS.role_id} withAsterisk options={roles.data} {...form.getInputProps('role_id')} />
            <SelectField
              label={USER_LABELS.user_status_id}
              withAsterisk
              options={statuses.data}
              {...form.getInputProps('user_status_id')}
            />
          </SimpleGrid>
        </>
      ),
    },
    details: (row) => [
      { label: USER_LABELS.first_name, value: row.first_name },
      { label: USER_LABELS.middle_name, value: row.middle_name },
      { label: USER_LABELS.last_name, value: row.last_name },
      { label: USER_LABELS.email, value: row.email },
      { label: USER_LABELS.contact_number, value: row.contact_number },
      { label: USER_LABELS.role_id, value: row.role?.name },
      { label: USER_LABELS.branch_id, value: row.branch?.name },
      { label: USER_LABELS.user_status_id, value: row.status?.name },
    ],
    save: (values, row) => {
      const { password, send_set_password_email, ...rest } = values;
      return row ? userApi.update(row.id, rest) : userApi.create({ ...rest, password, send_set_password_email });
    },
    remove: (row) => userApi.remove(row.id),
    extraActions: (row, run) => (
      <>
        <AppButton size="compact-xs" variant="secondary" onClick={() => void printBadge(row)} aria-label={`PRINT BADGE ${row.full_name}`}>
          PRINT BADGE
        </AppButton>
        <AppButton
          size="compact-xs"
          variant="secondary"
          onClick={() => void resetPassword(row, run)}
          aria-label={`RESET PASSWORD ${row.full_name}`}
        >
          RESET PASSWORD
        </AppButton>
        <AppButton
          size="compact-xs"
          variant="secondary"
          c={isActive(row) ? 'orange' : 'teal'}
          onClick={() => void toggle(row, run)}
          aria-label={`${isActive(row) ? 'DEACTIVATE' : 'ACTIVATE'} ${row.full_name}`}
        >
          {isActive(row) ? 'DEACTIVATE' : 'ACTIVATE'}
        </AppButton>
      </>
    ),
  };
  return <CrudPage screen={screen} rowName={(r) => r.full_name} />;
}
