import { describe, expect, it } from 'vitest';
import { allReportedValid, externalErrorFor, validateText } from './text-rules.ts';

describe('shared text input rules', () => {
  it('when a required value is empty or blank, then "{label} is required" comes first', () => {
    expect(validateText('', { label: 'Email', required: true, pattern: /@/, minLength: 5 })).toBe('Email is required');
    expect(validateText('   ', { label: 'Email', required: true })).toBe('Email is required');
  });

  it('when the pattern fails, then the supplied message or "Invalid {label} format", before minLength', () => {
    expect(validateText('ab', { label: 'Email', pattern: /@/, minLength: 5 })).toBe('Invalid Email format');
    expect(validateText('ab', { label: 'Email', pattern: /@/, patternMessage: 'Invalid email format' })).toBe('Invalid email format');
  });

  it('when the value is empty and optional, then the pattern is not checked', () => {
    expect(validateText('', { label: 'Middle name', pattern: /^[A-Za-z]+$/ })).toBeNull();
  });

  it('when the blank flag is set, then whitespace fails the pattern even if the pattern would allow it', () => {
    expect(validateText('  ', { label: 'Name', pattern: /^[A-Za-z\s]+$/, rejectBlank: true })).toBe('Invalid Name format');
    expect(validateText('  ', { label: 'Name', pattern: /^[A-Za-z\s]+$/ })).toBeNull();
  });

  it('when the value is shorter than minLength, then "{label} must be at least {n} characters"', () => {
    expect(validateText('short', { label: 'Password', minLength: 8 })).toBe('Password must be at least 8 characters');
    expect(validateText('long enough', { label: 'Password', minLength: 8 })).toBeNull();
  });

  it('when an outside error is a string, list or object keyed by field, then its first message shows, unwrapped', () => {
    expect(externalErrorFor('Taken', 'email')).toBe('Taken');
    expect(externalErrorFor(['First', 'Second'], 'email')).toBe('First');
    expect(externalErrorFor({ email: ['["The email has already been taken."]'] }, 'email')).toBe('The email has already been taken.');
    expect(externalErrorFor({ name: ['x'] }, 'email')).toBeNull();
    expect(externalErrorFor(null, 'email')).toBeNull();
  });

  it('when every reported field is valid, then the form may be submitted', () => {
    expect(allReportedValid({ a: true, b: true })).toBe(true);
    expect(allReportedValid({ a: true, b: false })).toBe(false);
  });
});
