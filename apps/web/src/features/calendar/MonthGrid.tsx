import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CalendarEvent } from '@venue/domain';
import { monthCells } from './calendarOptions';

/**
 * What a day cell shows of an event: the emoji and the short title; a timed
 * event's time first, so a narrow cell cuts the title rather than the time
 * (Chanukah's nights: "16:58 Chanukah: 3 Candles").
 */
export function eventLine(e: CalendarEvent): string {
  const title = e.timed ? `${e.timed.formatted} ${e.titleBrief}` : e.title;
  return e.emoji ? `${e.emoji} ${title}` : title;
}

/** The category class of an event (colour in calendar.css). */
export function eventKind(e: CalendarEvent): string {
  const c = e.categories;
  if (c.includes('candles') || c.includes('havdalah')) return 'ev-times';
  if (c.includes('parashat')) return 'ev-parsha';
  if (c.includes('major') || c.includes('holiday')) return 'ev-holiday';
  if (c.includes('omer')) return 'ev-omer';
  if (c.includes('molad') || c.includes('mevarchim') || c.includes('roshchodesh')) return 'ev-month';
  return 'ev-learning';
}

/**
 * The month grid: seven columns from Sunday (seed 001 §2), each day with its
 * Gregorian number, Hebrew date and events. The grid follows the page's
 * direction (right to left in Hebrew). A click opens the day panel.
 */
export function MonthGrid(props: {
  year: number;
  month: number;
  events: CalendarEvent[];
  selected: string | null;
  today: string;
  onSelect: (date: string) => void;
}) {
  const { t } = useTranslation();
  const byDay = new Map<string, CalendarEvent[]>();
  for (const e of props.events) byDay.set(e.date, [...(byDay.get(e.date) ?? []), e]);
  return (
    <div className="cal-grid" data-testid="calendar-grid">
      {[0, 1, 2, 3, 4, 5, 6].map((d) => (
        <div key={`h${d}`} className="cal-head">
          {t(`daysShort.${d}`)}
        </div>
      ))}
      {monthCells(props.year, props.month).map((date, i) => {
        if (!date) return <div key={`e${i}`} className="cal-cell cal-empty" />;
        const evs = byDay.get(date) ?? [];
        const hebrew = evs.find((e) => e.categories[0] === 'hebdate');
        const cls = ['cal-cell', date === props.selected && 'cal-selected', date === props.today && 'cal-today'];
        return (
          <button
            type="button"
            key={date}
            className={cls.filter(Boolean).join(' ')}
            data-date={date}
            onClick={() => props.onSelect(date)}
            aria-pressed={date === props.selected}
          >
            <span className="cal-day-num">
              <span className="ltr-value">{Number(date.slice(8))}</span>
              {hebrew && (
                <Typography.Text className="cal-hebdate cal-muted" dir="auto">
                  {hebrew.title}
                </Typography.Text>
              )}
            </span>
            {evs
              .filter((e) => e !== hebrew)
              .map((e, k) => (
                <span key={k} className={`cal-ev ${eventKind(e)}`} dir="auto" title={e.title}>
                  {eventLine(e)}
                </span>
              ))}
          </button>
        );
      })}
    </div>
  );
}
