import type { ReactNode } from 'react';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  codeI18nKey,
  formatDate,
  formatDateTime,
  formatMoney,
  formatNumber,
  JERUSALEM,
  REASON_KEYS,
  type ReportValueType,
} from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { StatusTag } from '../../shared/StatusTag';

const QUICK_EXIT_COLOR: Record<number, string> = {
  1: 'green',
  2: 'green',
  7: 'gold',
  8: 'gold',
  9: 'default',
  6: 'red',
};
const PURCHASE_STATUS_COLOR: Record<number, string> = { 1: 'green', 2: 'gold', 3: 'red' };
/** Safer payments: awaiting the provider, charged and refunded, refund failed (money kept without a purchase), not charged. */
const SAFER_STATE_COLOR: Record<number, string> = { 1: 'gold', 2: 'blue', 3: 'red', 4: 'default' };
/** License request statuses (LicenseRequestStatus): pending, loaded, rejected, cancelled by customer, by manager. */
const LICENSE_REQUEST_COLOR: Record<number, string> = { 1: 'gold', 2: 'green', 3: 'red', 4: 'default', 5: 'default' };

/**
 * Formats values of the report catalogue's types: `(type, value) => ReactNode` (money in
 * minor units, agorot, with the club's currency; instants in the club's zone; enums as labels).
 */
export function useReportFormatter() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const timeZone = club.location?.timeZone ?? JERUSALEM.timeZone;
  return (type: ReportValueType, v: unknown): ReactNode => {
    if (v == null || v === '') return type === 'money' ? '' : '—';
    switch (type) {
      case 'money':
        return <span className="ltr-value">{formatMoney(Number(v), club.currencySymbol, lang)}</span>;
      case 'datetime':
        return <span className="ltr-value">{formatDateTime(String(v), timeZone)}</span>;
      case 'date':
        return <span className="ltr-value">{formatDate(String(v))}</span>;
      case 'int':
        return formatNumber(Number(v), lang);
      case 'entranceStatus':
        return <StatusTag status={Number(v)} />;
      case 'reason':
        return t(`reason.${REASON_KEYS[Number(v)] ?? 'unknown'}`, { defaultValue: String(v) });
      case 'paymentMethod':
        return t(`money.method_${Number(v)}`, { defaultValue: String(v) });
      case 'itemType':
        return t(`money.itemType.${Number(v)}`, { defaultValue: String(v) });
      case 'purchaseStatus':
        return (
          <Tag color={PURCHASE_STATUS_COLOR[Number(v)]} style={{ marginInlineEnd: 0 }}>
            {t(`money.paymentStatus.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'minutes':
        return t('reports.minutes', { n: Number(v) });
      case 'quickExitType':
        return (
          <Tag color={QUICK_EXIT_COLOR[Number(v)] ?? 'default'} style={{ marginInlineEnd: 0 }}>
            {t(`reports.quickExitType.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'activityKind':
        return t(`reports.activityKind.${Number(v)}`, { defaultValue: String(v) });
      case 'cashState':
        return t(`reports.cashState.${String(v)}`, { defaultValue: String(v) });
      case 'debtSource':
        return t(`reports.debtSource.${String(v)}`, { defaultValue: String(v) });
      case 'excessState':
        return (
          <Tag color={Number(v) === 1 ? 'gold' : 'green'} style={{ marginInlineEnd: 0 }}>
            {t(`reports.excessState.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'licenseSource':
        return t(`reports.licenseSource.${Number(v)}`, { defaultValue: String(v) });
      case 'saferState':
        return (
          <Tag color={SAFER_STATE_COLOR[Number(v)] ?? 'default'} style={{ marginInlineEnd: 0 }}>
            {t(`reports.saferState.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'licenseRequestStatus':
        return (
          <Tag color={LICENSE_REQUEST_COLOR[Number(v)] ?? 'default'} style={{ marginInlineEnd: 0 }}>
            {t(`licenses.status.${Number(v)}`, { defaultValue: String(v) })}
          </Tag>
        );
      case 'auditAction':
        return t(codeI18nKey('auditAction', String(v)), { defaultValue: String(v) });
      case 'auditEntity':
        return t(codeI18nKey('auditEntity', String(v)), { defaultValue: String(v) });
      case 'personalDataKind':
        return t(codeI18nKey('personalDataKind', String(v)), { defaultValue: String(v) });
      case 'bookingKind':
        return t(codeI18nKey('bookingKind', String(v)), { defaultValue: String(v) });
      case 'bool':
        return (
          <Tag color={v ? 'green' : 'red'} style={{ marginInlineEnd: 0 }}>
            {v ? t('reports.yes') : t('reports.no')}
          </Tag>
        );
      case 'text':
        // The club's own data (names, texts, card numbers): its own direction, not translated.
        return <span dir="auto">{String(v)}</span>;
      default:
        return String(v);
    }
  };
}
