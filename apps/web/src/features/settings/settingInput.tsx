import type { ReactNode } from 'react';
import { AutoComplete, Input, InputNumber, Select, Switch } from 'antd';
import type { TFunction } from 'i18next';
import { COUNTRIES, CURRENCY_SYMBOL, FeeType } from '@venue/domain';
import { MoneyInput } from '../../shared/MoneyInput';
import type { Field } from './settingsFields';

/** What a setting's input needs from the screen. */
export interface SettingInputContext {
  t: TFunction;
  /** Read-only: no edit right, or an operator-only setting for club staff. */
  disabled: boolean;
  currencySymbol: string;
  /** Cities of the chosen country, for the city suggestions. */
  cities: string[];
  groups: { id: number; name: string }[];
  /** The fee type (FeeType) currently chosen for a fee value field. */
  feeType: (f: Field) => number;
  /** The country changed: the city no longer applies. */
  onCountryChange: () => void;
}

/**
 * The input of one setting by its kind (money in agorot, a fee value either
 * agorot or a percent by its fee type). A plain function, not a component, so
 * the Form.Item around it gives the input its value and onChange.
 */
export function settingInput(f: Field, ctx: SettingInputContext): ReactNode {
  const { disabled } = ctx;
  const unit = f.unit ? ctx.t(`settings.unit_${f.unit}`) : undefined;
  switch (f.kind) {
    case 'switch':
      return <Switch disabled={disabled} data-testid={`setting-${f.key}`} />;
    case 'int':
      return (
        <InputNumber
          min={0}
          disabled={disabled}
          suffix={unit}
          style={{ inlineSize: '100%' }}
          data-testid={`setting-${f.key}`}
        />
      );
    case 'money':
      return <MoneyInput disabled={disabled} symbol={ctx.currencySymbol} data-testid={`setting-${f.key}`} />;
    case 'email':
      return <Input type="email" dir="ltr" disabled={disabled} data-testid={`setting-${f.key}`} />;
    case 'country':
      return (
        <Select
          disabled={disabled}
          options={COUNTRIES.map((c) => ({ value: c, label: ctx.t(`country.${c}`) }))}
          onChange={() => ctx.onCountryChange()}
          data-testid={`setting-${f.key}`}
        />
      );
    case 'city':
      return (
        <AutoComplete
          disabled={disabled}
          options={ctx.cities.map((c) => ({ value: c }))}
          filterOption={(inp, o) => String((o as { value?: string } | undefined)?.value ?? '').includes(inp)}
          data-testid={`setting-${f.key}`}
        />
      );
    case 'currency':
      return (
        <Select
          disabled={disabled}
          options={[376, 840, 978, 826, 348].map((c) => ({
            value: c,
            label: `${CURRENCY_SYMBOL[c]} ${ctx.t(`currency.${c}`)}`,
          }))}
        />
      );
    case 'language':
      return (
        <Select
          disabled={disabled}
          options={[
            { value: 'he', label: ctx.t('users.lang_he') },
            { value: 'en', label: ctx.t('users.lang_en') },
          ]}
        />
      );
    case 'languages':
      return (
        <Select
          mode="multiple"
          disabled={disabled}
          options={[
            { value: 'he', label: ctx.t('users.lang_he') },
            { value: 'en', label: ctx.t('users.lang_en') },
          ]}
        />
      );
    case 'fee':
      return (
        <Select
          disabled={disabled}
          options={Object.entries(FeeType).map(([k, v]) => ({ value: v, label: ctx.t(`feeType.${k}`) }))}
        />
      );
    case 'feeValue': {
      const type = ctx.feeType(f);
      if (type === FeeType.Fixed) return <MoneyInput disabled={disabled} symbol={ctx.currencySymbol} />;
      // Percentage in hundredths of a percent (250 = 2.5%), shown as a percent.
      return (
        <InputNumber<number>
          disabled={disabled || type === FeeType.NoFee}
          min={0}
          max={100}
          step={0.1}
          suffix="%"
          style={{ inlineSize: '100%' }}
          formatter={(v) => (v == null ? '' : String(v))}
          parser={(v) => Number(v ?? 0)}
        />
      );
    }
    case 'percentBp':
      // Basis points (825 = 8.25%), shown as a percent (feeProps converts).
      return (
        <InputNumber<number>
          disabled={disabled}
          min={0}
          max={25}
          step={0.01}
          suffix="%"
          style={{ inlineSize: '100%' }}
          data-testid={`setting-${f.key}`}
        />
      );
    case 'group':
      return (
        <Select
          allowClear
          disabled={disabled}
          placeholder={ctx.t('clients.noGroup')}
          options={ctx.groups.map((g) => ({ value: g.id, label: g.name }))}
        />
      );
    default:
      return <Input disabled={disabled} data-testid={`setting-${f.key}`} />;
  }
}

/** A percentage fee or rate is stored in hundredths of a percent (250 = 2.5%); the input shows percent. */
export function feeProps(f: Field, feeType: number) {
  return f.kind === 'percentBp' || (f.kind === 'feeValue' && feeType !== FeeType.Fixed)
    ? {
        getValueProps: (v: number | undefined) => ({ value: v == null ? null : v / 100 }),
        normalize: (v: number | null) => Math.round((v ?? 0) * 100),
      }
    : {};
}
