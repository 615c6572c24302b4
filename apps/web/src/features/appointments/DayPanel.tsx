import { useState } from 'react';
import { Button, Card, Empty, List, Popconfirm, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Booking, BookingEvening, WaitlistEntry } from '@venue/domain';
import { codeI18nKey } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { errorText } from '../../shared/errors';
import { useFormat } from '../../shared/useFormat';
import { useToast } from '../../shared/toast/ToastProvider';
import { BookDialog } from './BookDialog';
import { CancelDialog, MoveDialog } from './BookingDialogs';
import { STATUS_COLORS } from './parts';
import { useBookingActions, useEvening, useWaitlist } from './useAppointments';

/** The evening's live bookings of every room, by start time. */
export function eveningBookings(e: BookingEvening | undefined): Booking[] {
  return (e?.rooms ?? []).flatMap((r) => r.bookings).sort((a, b) => a.startsAt.localeCompare(b.startsAt));
}

/**
 * The chosen evening's bookings (move, cancel, take an offer for the client) and its waitlist
 * (add, remove; an offer made from it shows as an offered booking). Refreshed every 10 s.
 */
export function DayPanel({ date, groupId }: { date: string; groupId: number | undefined }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const toast = useToast();
  const evening = useEvening(date);
  const actions = useBookingActions();
  const [moving, setMoving] = useState<Booking | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const list = eveningBookings(evening.data);
  return (
    <div className="day-panel">
      <Card title={t('bookingConsole.day.title', { date: fmt.date(date) })} data-testid="day-bookings">
        <QueryState loading={evening.isPending} error={evening.error} onRetry={() => void evening.refetch()}>
          <List
            dataSource={list}
            locale={{ emptyText: <Empty description={t('bookingConsole.day.none')} /> }}
            renderItem={(b) => (
              <List.Item
                data-testid={`booking-${b.id}`}
                actions={[
                  b.status === 'offered' && (
                    <Button
                      key="accept"
                      size="small"
                      type="primary"
                      onClick={() => actions.accept.mutate(b.id, { onError: (e) => toast.error(errorText(t, e)) })}
                      data-testid={`accept-${b.id}`}
                    >
                      {t('bookingConsole.day.accept')}
                    </Button>
                  ),
                  ['offered', 'booked'].includes(b.status) && (
                    <Button key="move" size="small" onClick={() => setMoving(b)} data-testid={`move-${b.id}`}>
                      {t('bookingConsole.day.move')}
                    </Button>
                  ),
                  !['done', 'noShow'].includes(b.status) && (
                    <Button
                      key="cancel"
                      size="small"
                      danger
                      onClick={() => setCancelling(b)}
                      data-testid={`cancel-${b.id}`}
                    >
                      {t('bookingConsole.day.cancel')}
                    </Button>
                  ),
                ].filter(Boolean)}
              >
                <BookingLine b={b} />
              </List.Item>
            )}
          />
        </QueryState>
      </Card>
      <WaitlistCard date={date} groupId={groupId} />
      {moving && <MoveDialog booking={moving} groupId={groupId} onClose={() => setMoving(null)} />}
      {cancelling && <CancelDialog booking={cancelling} onClose={() => setCancelling(null)} />}
    </div>
  );
}

/** One booking: time, room, the client's name (first name only without the names permission), state. */
function BookingLine({ b }: { b: Booking }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <Space wrap size={[8, 4]} className="booking-line">
      <Typography.Text strong>{fmt.time(b.startsAt)}</Typography.Text>
      <bdi dir="auto" className="booking-room">
        {b.resourceName}
      </bdi>
      <bdi dir="auto" className="booking-name">
        {b.clientName}
      </bdi>
      <Tag color={STATUS_COLORS[b.status]}>{t(`bookingConsole.status.${b.status}`)}</Tag>
      {b.late && <Tag color="orange">{t('bookingConsole.status.late')}</Tag>}
      {b.status === 'offered' && b.offerExpiresAt && (
        <Typography.Text type="secondary">
          {t('bookingConsole.day.offerUntil', { time: fmt.time(b.offerExpiresAt) })}
        </Typography.Text>
      )}
      {b.fee > 0 && <Typography.Text type="secondary">{fmt.money(b.fee)}</Typography.Text>}
    </Space>
  );
}

/** The date's waitlist in order: who waits for which kind, her state, and remove; add opens the dialog. */
function WaitlistCard({ date, groupId }: { date: string; groupId: number | undefined }) {
  const { t } = useTranslation();
  const toast = useToast();
  const waitlist = useWaitlist(date);
  const { removeWaitlist } = useBookingActions();
  const [adding, setAdding] = useState(false);
  return (
    <Card
      title={t('bookingConsole.waitlist.title')}
      data-testid="waitlist"
      extra={
        <Button onClick={() => setAdding(true)} data-testid="waitlist-add">
          {t('bookingConsole.waitlist.add')}
        </Button>
      }
    >
      <QueryState loading={waitlist.isPending} error={waitlist.error} onRetry={() => void waitlist.refetch()}>
        <List
          dataSource={waitlist.data ?? []}
          locale={{ emptyText: <Empty description={t('bookingConsole.waitlist.none')} /> }}
          renderItem={(w: WaitlistEntry, i) => (
            <List.Item
              data-testid={`waitlist-${w.id}`}
              actions={
                w.status === 'waiting' || w.status === 'offered'
                  ? [
                      <Popconfirm
                        key="remove"
                        title={t('bookingConsole.waitlist.removeConfirm', { name: w.clientName })}
                        okText={t('common.delete')}
                        cancelText={t('common.cancel')}
                        onConfirm={() => removeWaitlist.mutate(w.id, { onError: (e) => toast.error(errorText(t, e)) })}
                      >
                        <Button size="small" data-testid={`waitlist-remove-${w.id}`}>
                          {t('bookingConsole.waitlist.remove')}
                        </Button>
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <Space wrap size={[8, 4]}>
                <Typography.Text type="secondary">{i + 1}.</Typography.Text>
                <bdi dir="auto" className="booking-name">
                  {w.clientName}
                </bdi>
                <Tag>{t(codeI18nKey('bookingKind', w.kind))}</Tag>
                <Tag color={w.status === 'offered' ? 'purple' : undefined}>
                  {t(`bookingConsole.waitlist.status.${w.status}`)}
                </Tag>
              </Space>
            </List.Item>
          )}
        />
      </QueryState>
      {adding && <BookDialog start={{ date, groupId, mode: 'waitlist' }} onClose={() => setAdding(false)} />}
    </Card>
  );
}
