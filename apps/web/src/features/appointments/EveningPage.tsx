import { useState } from 'react';
import { Button, DatePicker, Empty, Space, Tag, Typography } from 'antd';
import { LeftOutlined, ReloadOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { Booking, BookingEvening } from '@venue/domain';
import { codeI18nKey } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { errorText } from '../../shared/errors';
import { useFormat } from '../../shared/useFormat';
import { useToast } from '../../shared/toast/ToastProvider';
import { STATUS_COLORS } from './parts';
import { useBookingActions, useEvening, type TimelineStatus } from './useAppointments';
import { clubToday, shiftDate } from './WeekTab';
import { nextStep, previousStep } from './rules';
import './appointments.css';

/**
 * /management/booking-evening (issue 38; docs/appointments.md "The evening"): the attendant's
 * evening on a tablet — a lane per room with its bookings in time order, each a block with one big
 * button for the next step (check in → in preparation → immersed → done), no-show and undo; a
 * booking still not checked in five minutes after its start is marked late; a line shows where
 * now falls. First names only unless the server gives more (roleViewBookingNames). Refreshed every
 * 10 seconds and after every step, so it moves as she checks in.
 */
export function EveningPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const today = clubToday(fmt.timeZone);
  const [date, setDate] = useState(today);
  const evening = useEvening(date === today ? undefined : date);
  return (
    <div className="evening" data-testid="evening-page">
      <div className="page-header evening-header">
        <Typography.Title level={2}>{t('nav.bookingEvening')}</Typography.Title>
        <Space wrap>
          <Button
            size="large"
            icon={<LeftOutlined className="flip-rtl" />}
            aria-label={t('bookingConsole.evening.previous')}
            onClick={() => setDate(shiftDate(date, -1))}
          />
          <DatePicker
            size="large"
            value={dayjs(date)}
            allowClear={false}
            format="DD/MM/YYYY"
            aria-label={t('bookingConsole.evening.date')}
            onChange={(v) => v && setDate(v.format('YYYY-MM-DD'))}
            data-testid="evening-date"
          />
          <Button
            size="large"
            icon={<RightOutlined className="flip-rtl" />}
            aria-label={t('bookingConsole.evening.next')}
            onClick={() => setDate(shiftDate(date, 1))}
          />
          <Button size="large" disabled={date === today} onClick={() => setDate(today)}>
            {t('bookingConsole.evening.tonight')}
          </Button>
          <Button
            size="large"
            icon={<ReloadOutlined spin={evening.isFetching} />}
            aria-label={t('bookingConsole.evening.refresh')}
            onClick={() => void evening.refetch()}
          />
        </Space>
      </div>
      {evening.data && (
        <Typography.Paragraph type="secondary" data-testid="evening-updated">
          {t('bookingConsole.evening.updated', { at: fmt.time(new Date(evening.dataUpdatedAt), true) })}
        </Typography.Paragraph>
      )}
      <QueryState loading={evening.isPending} error={evening.error} onRetry={() => void evening.refetch()}>
        {evening.data && <Lanes data={evening.data} />}
      </QueryState>
    </div>
  );
}

/** One lane per room; a room with no booking says so. */
function Lanes({ data }: { data: BookingEvening }) {
  const { t } = useTranslation();
  if (data.rooms.length === 0) return <Empty description={t('bookingConsole.evening.noRooms')} />;
  const now = Date.parse(data.now);
  return (
    <div className="lanes" data-testid="evening-lanes">
      {data.rooms.map(({ resource, bookings }) => {
        const nowAt = bookings.findIndex((b) => Date.parse(b.startsAt) > now);
        const showNow = bookings.length > 0 && Date.parse(bookings[0].startsAt) <= now && nowAt !== -1;
        return (
          <section key={resource.id} className="lane" aria-label={resource.name} data-testid={`lane-${resource.id}`}>
            <header className="lane-head">
              <bdi dir="auto" className="lane-name">
                {resource.name}
              </bdi>
              <Typography.Text type="secondary">
                {t(codeI18nKey('bookingKind', resource.kind))} ·{' '}
                {t('bookingConsole.evening.count', { count: bookings.length })}
              </Typography.Text>
            </header>
            {bookings.length === 0 && (
              <Typography.Paragraph type="secondary" className="lane-empty">
                {t('bookingConsole.evening.noBookings')}
              </Typography.Paragraph>
            )}
            {bookings.map((b, i) => (
              <div key={b.id}>
                {showNow && i === nowAt && <NowLine at={data.now} />}
                <BookingBlock b={b} />
              </div>
            ))}
          </section>
        );
      })}
    </div>
  );
}

function NowLine({ at }: { at: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <div className="now-line" role="separator" aria-label={t('bookingConsole.evening.now', { at: fmt.time(at) })}>
      <span>{t('bookingConsole.evening.now', { at: fmt.time(at) })}</span>
    </div>
  );
}

/** A booking on the timeline: time, name, state; the next step, no-show and undo as big touch targets. */
function BookingBlock({ b }: { b: Booking }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const toast = useToast();
  const { setStatus } = useBookingActions();
  const next = b.status === 'offered' ? null : nextStep(b.status);
  const back = b.status === 'offered' ? null : previousStep(b.status);
  const step = (status: TimelineStatus) =>
    setStatus.mutate({ id: b.id, status }, { onError: (e) => toast.error(errorText(t, e)) });
  return (
    <article
      className={`block status-${b.status}${b.late ? ' late' : ''}`}
      data-testid={`block-${b.id}`}
      data-status={b.status}
    >
      <div className="block-time">
        {fmt.time(b.startsAt)}–{fmt.time(b.endsAt)}
      </div>
      <div className="block-name">
        <bdi dir="auto">{b.clientName}</bdi>
      </div>
      <div className="block-tags">
        <Tag color={STATUS_COLORS[b.status]}>{t(`bookingConsole.status.${b.status}`)}</Tag>
        {b.late && (
          <Tag color="orange" data-testid={`late-${b.id}`}>
            {t('bookingConsole.status.late')}
          </Tag>
        )}
        {b.status === 'offered' && b.offerExpiresAt && (
          <Typography.Text type="secondary">
            {t('bookingConsole.day.offerUntil', { time: fmt.time(b.offerExpiresAt) })}
          </Typography.Text>
        )}
      </div>
      <div className="block-actions">
        {next && (
          <Button
            type="primary"
            size="large"
            className="step"
            loading={setStatus.isPending}
            onClick={() => step(next)}
            data-testid={`step-${b.id}`}
          >
            {t(`bookingConsole.evening.to.${next}`)}
          </Button>
        )}
        {b.status === 'booked' && (
          <Button size="large" danger onClick={() => step('noShow')} data-testid={`noshow-${b.id}`}>
            {t('bookingConsole.evening.to.noShow')}
          </Button>
        )}
        {back && (
          <Button
            size="large"
            onClick={() => step(back)}
            aria-label={t('bookingConsole.evening.undoTo', { status: t(`bookingConsole.status.${back}`) })}
            data-testid={`undo-${b.id}`}
          >
            {t('bookingConsole.evening.undo')}
          </Button>
        )}
      </div>
    </article>
  );
}
