import { Card, Descriptions, Empty, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { locationDisplayName, type CalendarEvent } from '@venue/domain';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { errorText } from '../../shared/errors';
import type { CalendarPrefs } from './calendarOptions';
import { eventLine } from './MonthGrid';
import { useZmanim } from './useCalendar';

/** The chosen day: its zmanim (seed 001 §9), Tachanun, and its events. */
export function DayPanel({
  date,
  prefs,
  events,
}: {
  date: string | null;
  prefs: CalendarPrefs;
  events: CalendarEvent[];
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const z = useZmanim(prefs, date);
  if (!date) return <Empty description={t('calendar.pickDay')} />;
  const tach = z.data?.tachanun;
  const tachanun = !tach
    ? ''
    : tach.shacharit && tach.mincha
      ? t('calendar.tachanun.said')
      : !tach.shacharit && !tach.mincha && !tach.allCongs
        ? t('calendar.tachanun.none')
        : tach.shacharit
          ? t('calendar.tachanun.shacharitOnly')
          : t('calendar.tachanun.some');
  return (
    <Card
      size="small"
      data-testid="day-panel"
      title={
        <span>
          <span className="ltr-value">{date.split('-').reverse().join('/')}</span>{' '}
          <Typography.Text className="cal-muted" dir="auto">
            {z.data?.hebrewDate}
          </Typography.Text>
        </span>
      }
    >
      {events
        .filter((e) => e.categories[0] !== 'hebdate')
        .map((e, i) => (
          <div key={i} dir="auto" className="day-ev">
            {eventLine(e)}
          </div>
        ))}
      {z.isError && <Typography.Text type="danger">{errorText(t, z.error)}</Typography.Text>}
      {z.isLoading ? (
        <Spin />
      ) : z.data ? (
        <>
          <Tag className={tach?.shacharit ? 'cal-tag' : 'cal-tag cal-tag-none'} data-testid="tachanun">
            {t('calendar.tachanun.title')}: {tachanun}
          </Tag>
          <Descriptions size="small" column={1} bordered data-testid="zmanim">
            {z.data.times.map((x) => (
              <Descriptions.Item key={x.key} label={t(`calendar.zman.${x.key}`)}>
                <span className="ltr-value" data-zman={x.key}>
                  {x.time ?? '—'}
                </span>
              </Descriptions.Item>
            ))}
          </Descriptions>
          <Typography.Paragraph className="cal-muted" style={{ marginBlockStart: 8 }}>
            {t('calendar.zmanimAt', {
              place: locationDisplayName(z.data.location.name, lang),
              mins: z.data.candleLightingMins,
            })}
          </Typography.Paragraph>
        </>
      ) : null}
    </Card>
  );
}
