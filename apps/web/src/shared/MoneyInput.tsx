import { useEffect, useState } from 'react';
import { Input } from 'antd';
import { formatMinor, parseToMinor, fromMinor } from '@venue/domain';

interface MoneyInputProps {
  /** Amount in minor units (agorot). */
  value?: number;
  onChange?: (minor: number | null) => void;
  symbol?: string;
  'data-testid'?: string;
  status?: 'error';
  /** Empty means "none" (null) instead of 0 (e.g. a client's special price). */
  nullable?: boolean;
  disabled?: boolean;
  /** Given by the Form.Item around it, so that its label names the input (docs/accessibility.md). */
  id?: string;
  'aria-label'?: string;
  /** The id of a visible text that names the input (a caption beside it). */
  'aria-labelledby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  'aria-required'?: boolean | 'true' | 'false';
}

/** A decimal amount typed by the user, kept as integer minor units (DESIGN §7 "Money"). */
export function MoneyInput({ value, onChange, symbol, status, nullable, disabled, ...rest }: MoneyInputProps) {
  const [text, setText] = useState(value == null ? '' : fromMinor(value).toFixed(2));
  useEffect(() => {
    setText((prev) => (parseToMinor(prev) === value ? prev : value == null ? '' : fromMinor(value).toFixed(2)));
  }, [value]);
  return (
    <Input
      dir="ltr"
      inputMode="decimal"
      value={text}
      status={status}
      disabled={disabled}
      prefix={symbol}
      data-testid={rest['data-testid']}
      id={rest.id}
      aria-label={rest['aria-label']}
      aria-labelledby={rest['aria-labelledby']}
      aria-invalid={rest['aria-invalid']}
      aria-describedby={rest['aria-describedby']}
      aria-required={rest['aria-required']}
      onChange={(e) => {
        setText(e.target.value);
        onChange?.(e.target.value.trim() === '' ? (nullable ? null : 0) : parseToMinor(e.target.value));
      }}
      onBlur={() => {
        const m = parseToMinor(text);
        if (m != null) setText(formatMinor(m, 'en-US').replaceAll(',', ''));
      }}
    />
  );
}
