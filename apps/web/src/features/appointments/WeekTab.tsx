import { useState } from 'react';
import { Button, Card, DatePicker, Empty, Select, Space, Tag, Typography } from 'antd';
import { LeftOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import {
  codeI18nKey,
  addDays,
  BOOKING_RESOURCE_KINDS,
  isoDate,
  localParts,
  parseIsoDate,
  type BookingResourceKind,
  type BookingSlots,
} from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { useFormat } from '../../shared/useFormat';
import { BookDialog, type BookStart } from './BookDialog';
import { DayPanel } from './DayPanel';
import { useGroups } from './parts';
import { hhmm } from './rules';
import { useSlots } from './useAppointments';

type SlotDay = BookingSlots['days'][number];
type Slot = SlotDay['slots'][number];

/** Today in the club's time zone, YYYY-MM-DD. */
export function clubToday(timeZone: string): string {
  return isoDate(localParts(new Date(), timeZone));
}

/** `date` moved by `days`, YYYY-MM-DD. */
export const shiftDate = (date: string, days: number) => isoDate(addDays(parseIsoDate(date), days));

/**
 * The week of bookable slots (docs/appointments.md "Slots"): seven evenings from the chosen day for
 * a group (its real opening, nightfall at the club's location) and a room kind; each evening with
 * its rooms' slots, free (a click books a client there), taken or past. Choosing an evening shows
 * its bookings and waitlist below. Days side by side on a wide screen, one under another on a phone.
 */
export function WeekTab() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const today = clubToday(fmt.timeZone);
  const [from, setFrom] = useState(today);
  const [groupId, setGroupId] = useState<number | undefined>();
  const [kind, setKind] = useState<BookingResourceKind | undefined>();
  const [day, setDay] = useState(today);
  const [booking, setBooking] = useState<BookStart | null>(null);
  const groups = useGroups();
  const slots = useSlots(from, groupId, kind);
  const shownGroup = groupId ?? slots.data?.groupId ?? undefined;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <div className="week-controls">
        <Space wrap>
          <Button
            icon={<LeftOutlined className="flip-rtl" />}
            aria-label={t('bookingConsole.week.previous')}
            onClick={() => setFrom(shiftDate(from, -7))}
            data-testid="week-prev"
          />
          <DatePicker
            value={dayjs(from)}
            allowClear={false}
            format="DD/MM/YYYY"
            aria-label={t('bookingConsole.week.from')}
            onChange={(v) => v && setFrom(v.format('YYYY-MM-DD'))}
            data-testid="week-from"
          />
          <Button
            icon={<RightOutlined className="flip-rtl" />}
            aria-label={t('bookingConsole.week.next')}
            onClick={() => setFrom(shiftDate(from, 7))}
            data-testid="week-next"
          />
          {groups.data && (
            <Select
              aria-label={t('bookingConsole.week.group')}
              className="week-select"
              value={shownGroup}
              placeholder={t('bookingConsole.week.group')}
              onChange={setGroupId}
              data-testid="week-group"
              options={groups.data.map((g) => ({ value: g.id, label: g.name }))}
            />
          )}
          <Select
            aria-label={t('bookingConsole.week.kind')}
            className="week-select"
            value={kind ?? 'all'}
            onChange={(v: string) => setKind(v === 'all' ? undefined : (v as BookingResourceKind))}
            data-testid="week-kind"
            options={[
              { value: 'all', label: t('bookingConsole.week.allKinds') },
              ...BOOKING_RESOURCE_KINDS.map((k) => ({ value: k, label: t(codeI18nKey('bookingKind', k)) })),
            ]}
          />
        </Space>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setBooking({ date: day, kind, groupId: shownGroup })}
          data-testid="booking-new"
        >
          {t('bookingConsole.book.new')}
        </Button>
      </div>
      <QueryState loading={slots.isPending} error={slots.error} onRetry={() => void slots.refetch()}>
        {slots.data && (
          <WeekGrid
            data={slots.data}
            selected={day}
            onSelect={setDay}
            onBook={(s, date) =>
              setBooking({ date, kind: s.kind, resourceId: s.resourceId, startsAt: s.startsAt, groupId: shownGroup })
            }
          />
        )}
      </QueryState>
      <DayPanel date={day} groupId={shownGroup} />
      {booking && <BookDialog start={booking} onClose={() => setBooking(null)} />}
    </Space>
  );
}

/** The seven evenings, each a column (a card on a phone) with its rooms and their slots. */
function WeekGrid({
  data,
  selected,
  onSelect,
  onBook,
}: {
  data: BookingSlots;
  selected: string;
  onSelect: (date: string) => void;
  onBook: (s: Slot, date: string) => void;
}) {
  const { t } = useTranslation();
  if (data.resources.length === 0)
    return (
      <Empty
        description={data.groupId == null ? t('bookingConsole.week.noGroup') : t('bookingConsole.week.noRooms')}
        data-testid="week-empty"
      />
    );
  return (
    <div className="week-grid" data-testid="week-grid">
      {data.days.map((d) => (
        <DayColumn
          key={d.date}
          day={d}
          data={data}
          selected={d.date === selected}
          onSelect={onSelect}
          onBook={onBook}
        />
      ))}
    </div>
  );
}

function DayColumn({
  day,
  data,
  selected,
  onSelect,
  onBook,
}: {
  day: SlotDay;
  data: BookingSlots;
  selected: boolean;
  onSelect: (date: string) => void;
  onBook: (s: Slot, date: string) => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const now = Date.now();
  const free = day.slots.filter((s) => s.free).length;
  return (
    <Card
      size="small"
      className={`week-day${selected ? ' selected' : ''}`}
      data-testid={`week-day-${day.date}`}
      title={
        <button
          type="button"
          className="day-head"
          aria-pressed={selected}
          onClick={() => onSelect(day.date)}
          data-testid={`day-select-${day.date}`}
        >
          <span className="day-name">{t(`bookingConsole.weekday.${day.weekday}`)}</span>
          <span className="day-date">{fmt.date(day.date)}</span>
        </button>
      }
    >
      <div className="day-facts">
        {day.nightfall != null && (
          <Typography.Text type="secondary">
            {t('bookingConsole.week.nightfall', { at: hhmm(day.nightfall) })}
          </Typography.Text>
        )}
        {day.erevChag && <Tag color="orange">{t('bookingConsole.week.erevChag')}</Tag>}
        {day.holidays.map((h) => (
          <Tag key={h} className="holiday">
            {h}
          </Tag>
        ))}
        <Typography.Text type="secondary" data-testid="day-free">
          {t('bookingConsole.week.free', { count: free })}
        </Typography.Text>
      </div>
      {day.slots.length === 0 ? (
        <Typography.Text type="secondary">{t('bookingConsole.week.closed')}</Typography.Text>
      ) : (
        data.resources.map((r) => {
          const mine = day.slots.filter((s) => s.resourceId === r.id);
          if (mine.length === 0) return null;
          return (
            <div key={r.id} className="day-room">
              <div className="room-name">
                <bdi dir="auto">{r.name}</bdi>
              </div>
              <div className="slot-list">
                {mine.map((s) => {
                  const past = Date.parse(s.startsAt) <= now;
                  const state = s.free ? 'free' : past ? 'past' : 'taken';
                  const time = fmt.time(s.startsAt);
                  return (
                    <button
                      type="button"
                      key={s.startsAt}
                      className={`slot ${state}`}
                      disabled={!s.free}
                      onClick={() => onBook(s, day.date)}
                      aria-label={t(`bookingConsole.week.slot.${state}`, { time, room: r.name })}
                      data-testid={`slot-${r.id}-${s.startsAt}`}
                      data-state={state}
                    >
                      {time}
                    </button>
                  );
                })}
              </div>
            </div>
          );
        })
      )}
    </Card>
  );
}
