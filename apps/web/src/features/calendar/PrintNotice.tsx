import { useTranslation } from 'react-i18next';
import type { CalendarEvent, CalendarGroupHours } from '@venue/domain';
import { clock } from './calendarOptions';

/** Windows that touch (one row ends where the next begins) as one opening on the notice. */
function joined(ws: readonly { from: number; to: number }[]): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (const w of ws) {
    const last = out[out.length - 1];
    if (last && last.to === w.from) last.to = w.to;
    else out.push({ from: w.from, to: w.to });
  }
  return out;
}

/** A day's openings, each kept whole ("20:00–22:30") and read left to right in both languages; they wrap between windows. */
function Hours({ windows }: { windows: { from: number; to: number }[] }) {
  if (windows.length === 0) return <>—</>;
  return (
    <>
      {windows.map((w) => (
        <span key={w.from} className="ltr-value cal-print-window">
          {clock(w.from)}–{clock(w.to)}
        </span>
      ))}
    </>
  );
}

/** The Hebrew date without its year, short enough for one line ("11 Kislev", "י״א כסלו"): the month's title carries the year. */
export function shortHebrewDate(title: string): string {
  const t = title.trim();
  if (/[\u0590-\u05FF]/.test(t)) return t.split(/\s+/).slice(0, -1).join(' ') || t;
  return t.replace(/,?\s*\d+$/, '').replace(/^(\d+)(st|nd|rd|th) of /, '$1 ');
}

/** Timed events that are times of their own (candle lighting, havdalah, a fast's start and end), not a day's event. */
const isTimeLine = (e: CalendarEvent) =>
  e.categories.some((c) => c === 'candles' || c === 'havdalah' || c === 'zmanim');

/**
 * The month as an A4 notice for the club's door (printed only, calendar.css
 * `@media print`; one page for any month: docs/calendar.md "The printed
 * notice"): one line a day with the Hebrew date, the day's holidays and
 * parsha (Chanukah's nights with their candle-lighting time), candle
 * lighting and havdalah, and each group's opening hours beside them.
 */
export function PrintNotice(props: {
  clubName: string;
  title: string;
  place: string;
  days: string[];
  events: CalendarEvent[];
  hours: CalendarGroupHours[];
}) {
  const { t } = useTranslation();
  const groups = props.hours.filter((g) => g.days.some((d) => d.windows.length > 0));
  const of = (date: string) => props.events.filter((e) => e.date === date);
  return (
    <section className="cal-print" data-testid="print-notice" data-groups={Math.min(groups.length, 6)}>
      <h1>{props.clubName}</h1>
      <h2>
        {props.title} · {props.place}
      </h2>
      <table>
        <thead>
          <tr>
            <th>{t('calendar.print.date')}</th>
            <th className="cal-print-events">{t('calendar.print.events')}</th>
            <th>{t('calendar.print.times')}</th>
            {groups.map((g) => (
              <th key={g.groupId} dir="auto">
                {g.groupName}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.days.map((date) => {
            const evs = of(date);
            const hebrew = evs.find((e) => e.categories[0] === 'hebdate');
            const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
            return (
              <tr key={date} className={weekday === 6 ? 'shabbat' : undefined}>
                <td className="nowrap">
                  {t(`daysShort.${weekday}`)} <span className="ltr-value">{date.slice(8)}</span>{' '}
                  <span dir="auto">{hebrew ? shortHebrewDate(hebrew.title) : ''}</span>
                </td>
                <td dir="auto">
                  {evs
                    .filter(
                      (e) =>
                        e !== hebrew && !isTimeLine(e) && !e.categories.some((c) => /yomi|dafyomi|omer|molad/.test(c)),
                    )
                    .map((e) => (e.timed ? `${e.titleBrief} ${e.timed.formatted}` : e.title))
                    .join(' · ')}
                </td>
                <td className="nowrap" dir="auto">
                  {evs
                    .filter((e) => e.categories.includes('candles') || e.categories.includes('havdalah'))
                    .map((e) => `${e.titleBrief} ${e.timed?.formatted ?? ''}`)
                    .join(' · ')}
                </td>
                {groups.map((g) => (
                  <td key={g.groupId}>
                    <Hours windows={joined(g.days.find((d) => d.date === date)?.windows ?? [])} />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
