import { useState } from 'react';
import { Alert, Button, Segmented, Select, Space, Typography } from 'antd';
import { LeftOutlined, PrinterOutlined, RightOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CALENDAR_LOCALES, isoDate, JERUSALEM, localParts, locationDisplayName } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useDirection, useLanguage } from '../../platform/i18n/LocaleProvider';
import { errorText } from '../../shared/errors';
import { useViewport } from '../../shared/useMediaQuery';
import { monthCells } from './calendarOptions';
import { DayPanel } from './DayPanel';
import { MonthGrid } from './MonthGrid';
import { OptionsDrawer } from './OptionsDrawer';
import { PrintNotice } from './PrintNotice';
import { useCalendarEvents, useCalendarPrefs, useGroupHours } from './useCalendar';
import './calendar.css';

const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/**
 * The calendar of the club's location (issue 14 §3; docs/calendar.md "The
 * calendar screen"): a Gregorian month with Hebrew dates and the events of
 * the options, a day panel with the zmanim, the options drawer, Israel or
 * diaspora, the four renderings, and the month printed as a door notice.
 */
export function CalendarPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const rtl = useDirection() === 'rtl';
  const { club } = useSessionData();
  const loc = club.location ?? JERUSALEM;
  const today = isoDate(localParts(new Date(), loc.timeZone));
  const [ym, setYm] = useState(() => ({ y: Number(today.slice(0, 4)), m: Number(today.slice(5, 7)) }));
  const [selected, setSelected] = useState<string | null>(today);
  const [drawer, setDrawer] = useState(false);
  const [prefs, setPrefs] = useCalendarPrefs();
  const start = `${ym.y}-${String(ym.m).padStart(2, '0')}-01`;
  const end = `${start.slice(0, 8)}${lastDay(ym.y, ym.m)}`;
  const events = useCalendarEvents(prefs, start, end);
  const hours = useGroupHours(start, end);
  const phone = useViewport() === 'phone';
  // Another month: its first day is chosen (today when the month is today's).
  const shift = (n: number) => {
    const next = { y: ym.m + n > 12 ? ym.y + 1 : ym.m + n < 1 ? ym.y - 1 : ym.y, m: ((ym.m + n + 11) % 12) + 1 };
    setYm(next);
    const first = `${next.y}-${String(next.m).padStart(2, '0')}-01`;
    setSelected(today.slice(0, 7) === first.slice(0, 7) ? today : first);
  };
  const title = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(ym.y, ym.m - 1, 1)));
  const il = prefs.il ?? loc.il;
  const place = locationDisplayName(loc.name, lang);
  const Prev = rtl ? RightOutlined : LeftOutlined;
  const Next = rtl ? LeftOutlined : RightOutlined;
  const evs = events.data?.events ?? [];
  const localeOptions = CALENDAR_LOCALES.map((l) => ({ value: l, label: t(`calendar.locale.${l}`) }));
  return (
    <div className="calendar-page" data-testid="calendar-page">
      <div className="cal-screen">
        <Space wrap className="cal-toolbar" size="small">
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="calendar-title">
            {title}
          </Typography.Title>
          <Button icon={<Prev />} aria-label={t('calendar.prev')} onClick={() => shift(-1)} />
          <Button
            onClick={() => {
              setYm({ y: Number(today.slice(0, 4)), m: Number(today.slice(5, 7)) });
              setSelected(today);
            }}
          >
            {t('calendar.today')}
          </Button>
          <Button icon={<Next />} aria-label={t('calendar.next')} onClick={() => shift(1)} />
          <Segmented
            data-testid="calendar-il"
            value={il ? 'il' : 'diaspora'}
            onChange={(v) => setPrefs({ ...prefs, il: v === 'il' })}
            options={[
              { value: 'il', label: t('calendar.israel') },
              { value: 'diaspora', label: t('calendar.diaspora') },
            ]}
          />
          {phone ? (
            <Select
              data-testid="calendar-locale"
              value={prefs.locale}
              onChange={(v) => setPrefs({ ...prefs, locale: v })}
              options={localeOptions}
              popupMatchSelectWidth={false}
              aria-label={t('calendar.rendering')}
            />
          ) : (
            <Segmented
              data-testid="calendar-locale"
              value={prefs.locale}
              onChange={(v) => setPrefs({ ...prefs, locale: v as typeof prefs.locale })}
              options={localeOptions}
            />
          )}
          <Button icon={<SettingOutlined />} onClick={() => setDrawer(true)} data-testid="calendar-options-button">
            {t('calendar.options')}
          </Button>
          <Button icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="calendar-print">
            {t('calendar.printMonth')}
          </Button>
        </Space>
        <Typography.Paragraph className="cal-muted" data-testid="calendar-place">
          {t('calendar.for', { place, schedule: il ? t('calendar.israel') : t('calendar.diaspora') })}
        </Typography.Paragraph>
        {events.isError && <Alert type="error" showIcon title={errorText(t, events.error)} />}
        <div className="cal-layout">
          <MonthGrid year={ym.y} month={ym.m} events={evs} selected={selected} today={today} onSelect={setSelected} />
          <DayPanel date={selected} prefs={prefs} events={evs.filter((e) => e.date === selected)} />
        </div>
      </div>
      <PrintNotice
        clubName={club.name}
        title={title}
        place={place}
        days={monthCells(ym.y, ym.m).filter((d): d is string => d !== null)}
        events={evs}
        hours={hours.data ?? []}
      />
      <OptionsDrawer open={drawer} onClose={() => setDrawer(false)} prefs={prefs} onChange={setPrefs} />
    </div>
  );
}
