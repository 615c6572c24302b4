import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@venue/domain';
import { useRetention } from './usePrivacy';

/**
 * Said over an entrance report whose period starts before the club's retention horizon (issue 39,
 * docs/privacy.md "Retention"): the days before it show their daily counts in the totals, but no
 * rows — so an empty table there means "past retention", not "no entrances". In visitor mode
 * (docs/privacy.md "Visitor mode") it says that entrances are kept per person only for the
 * decision window, over every period: the rows shown are those of the last hours only.
 */
export function RetentionNotice({ from }: { from: string }) {
  const { t } = useTranslation();
  const q = useRetention();
  const horizon = q.data?.entranceDetailFrom;
  if (q.data?.visitorMode)
    return (
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        data-testid="retention-notice"
        message={t('privacy.visitorModeNotice', { hours: q.data.visitorWindowHours })}
      />
    );
  if (!horizon || from >= horizon) return null;
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="retention-notice"
      message={t('privacy.pastRetention', { date: formatDate(horizon), days: q.data!.entranceDays })}
    />
  );
}
