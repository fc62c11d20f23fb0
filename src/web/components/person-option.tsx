import { Text, type ComboboxItem, type SelectProps } from '@mantine/core';
import type { AssignableUser } from '../../shared/schemas/users.ts';

/** What a person select knows of someone: a scanned badge may bring only the name. */
export type PersonChoice = Pick<AssignableUser, 'id' | 'full_name'> & Partial<Pick<AssignableUser, 'role' | 'branch'>>;

/** "Driver · Batangas Port": the role and branch that tell two people of one name apart; empty when neither is known. */
export const personRoleAndBranch = (person: PersonChoice) =>
  [person.role?.name, person.branch?.name].filter((part): part is string => Boolean(part)).join(' · ');

/**
 * The options of an "Assign to" or "Hand over to" select and the renderer that shows each person's role and branch
 * under the name; the role and branch are searched too, so "Batangas" narrows the list to that branch's couriers.
 */
export function personOptions(people: readonly PersonChoice[]): Pick<SelectProps, 'data' | 'renderOption' | 'filter'> {
  const byValue = new Map(people.map((person) => [String(person.id), person]));
  const detail = (option: ComboboxItem) => {
    const person = byValue.get(option.value);
    return person ? personRoleAndBranch(person) : '';
  };
  return {
    data: people.map((person) => ({ value: String(person.id), label: person.full_name })),
    renderOption: ({ option }) => (
      <div>
        <Text size="sm">{option.label}</Text>
        {detail(option) ? (
          <Text size="xs" c="dimmed">
            {detail(option)}
          </Text>
        ) : null}
      </div>
    ),
    filter: ({ options, search }) => {
      const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
      return (options as ComboboxItem[]).filter((option) => {
        const text = `${option.label} ${detail(option)}`.toLowerCase();
        return words.every((word) => text.includes(word));
      });
    },
  };
}
