import { Select, Textarea, type SelectProps, type TextareaProps } from '@mantine/core';
import { DateInput, type DateInputProps } from '@mantine/dates';

/** A select whose options come as { id, name } rows; values travel as strings, as Mantine wants them. */
export function SelectField({
  options,
  ...rest
}: Omit<SelectProps, 'data'> & { options: Array<{ id: number; name: string }> | undefined }) {
  return (
    <Select
      searchable
      data={(options ?? []).map((o) => ({ value: String(o.id), label: o.name }))}
      comboboxProps={{ withinPortal: true }}
      {...rest}
    />
  );
}

/** docs/spec.md §2 text area: three rows by default. */
export function TextAreaField({ minRows = 3, ...rest }: TextareaProps) {
  return <Textarea autosize minRows={minRows} rows={minRows} {...rest} />;
}

export function DateField(props: DateInputProps) {
  return <DateInput valueFormat="YYYY-MM-DD" clearable {...props} />;
}
