import { Button, type ButtonProps } from '@mantine/core';
import type { ButtonHTMLAttributes, Ref } from 'react';

export interface AppButtonProps extends Omit<ButtonProps, 'variant'>, Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'color' | 'style'> {
  variant?: 'primary' | 'secondary';
  ref?: Ref<HTMLButtonElement>;
}

/** docs/spec.md §2 buttons: primary by default, and type "button" unless told otherwise. */
export function AppButton({ variant = 'primary', type = 'button', ...rest }: AppButtonProps) {
  return <Button type={type} variant={variant === 'primary' ? 'filled' : 'default'} {...rest} />;
}
