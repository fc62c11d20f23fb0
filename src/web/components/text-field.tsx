import { TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useState } from 'react';
import { externalErrorFor, validateText, type ExternalError, type TextRule } from '../../shared/text-rules.ts';

export interface TextFieldProps extends Omit<TextInputProps, 'error' | 'onChange' | 'value' | 'label' | 'required'> {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  /** Local rules (docs/spec.md §5 "Shared text input"); checked on input and on blur. */
  rule?: Omit<TextRule, 'label' | 'required'>;
  /** An error from outside (a string, a list, or server errors keyed by field); it wins over the local one. */
  error?: ExternalError;
  onValidity?: (id: string, valid: boolean) => void;
  /** Show the local error before the field is touched (after a submit attempt). */
  showError?: boolean;
}

/** The spec's shared text input, on Mantine. */
export function TextField({ id, label, value, onChange, required, rule, error, onValidity, showError, onBlur, ...rest }: TextFieldProps) {
  const [touched, setTouched] = useState(false);
  const localError = validateText(value, { label, required, ...rule });
  const outside = externalErrorFor(error, id);
  useEffect(() => {
    onValidity?.(id, localError === null);
  }, [id, localError, onValidity]);
  const shown = outside ?? (touched || showError ? localError : null);
  return (
    <TextInput
      id={id}
      name={id}
      label={label}
      withAsterisk={required}
      value={value}
      error={shown}
      onChange={(event) => {
        setTouched(true);
        onChange(event.currentTarget.value);
      }}
      onBlur={(event) => {
        setTouched(true);
        onBlur?.(event);
      }}
      {...rest}
    />
  );
}
