import { useState } from 'react';
import { Alert, DatePicker, Form, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { Booking } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useFormat } from '../../shared/useFormat';
import { useToast } from '../../shared/toast/ToastProvider';
import { useFreeSlots } from './BookDialog';
import { refundsNow } from './rules';
import { useBookingActions, useBookingSettings } from './useAppointments';

/**
 * Moves a booking to another free slot of its room kind (any room of the kind, any date); the fee
 * stays and the reminders are planned anew (docs/appointments.md "Booking, moving, cancelling").
 */
export function MoveDialog({
  booking,
  groupId,
  onClose,
}: {
  booking: Booking;
  groupId: number | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const toast = useToast();
  const { move } = useBookingActions();
  const [date, setDate] = useState(() => dayjs(booking.startsAt).format('YYYY-MM-DD'));
  const [slot, setSlot] = useState<string | undefined>();
  const free = useFreeSlots(date, groupId, booking.kind);
  const submit = () => {
    if (!slot) return;
    const [resourceId, startsAt] = slot.split('|');
    move.mutate(
      { id: booking.id, body: { resourceId: Number(resourceId), startsAt } },
      { onSuccess: (b) => (toast.success(t('bookingConsole.move.done', { time: fmt.time(b.startsAt) })), onClose()) },
    );
  };
  return (
    <Modal
      open
      title={t('bookingConsole.move.title', { name: booking.clientName })}
      onCancel={onClose}
      onOk={submit}
      okText={t('bookingConsole.move.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: move.isPending, disabled: !slot, 'data-testid': 'move-submit' }}
      destroyOnHidden
    >
      <div data-testid="move-dialog">
        <Typography.Paragraph>
          {t('bookingConsole.move.now', {
            date: fmt.instantDate(booking.startsAt),
            time: fmt.time(booking.startsAt),
            room: booking.resourceName,
          })}
        </Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label={t('bookingConsole.book.date')} htmlFor="move-date">
            <DatePicker
              id="move-date"
              value={dayjs(date)}
              allowClear={false}
              format="DD/MM/YYYY"
              onChange={(v) => v && (setDate(v.format('YYYY-MM-DD')), setSlot(undefined))}
            />
          </Form.Item>
          <Form.Item label={t('bookingConsole.move.to')} htmlFor="move-time" required>
            <Select
              id="move-time"
              value={slot}
              loading={free.loading}
              onChange={setSlot}
              placeholder={t('bookingConsole.book.timePlaceholder')}
              notFoundContent={t('bookingConsole.book.noFree')}
              data-testid="move-time"
              options={free.options.map((o) => ({ value: o.value, label: o.label }))}
            />
          </Form.Item>
        </Form>
        {move.error != null && (
          <Alert type="error" showIcon title={errorText(t, move.error)} data-testid="move-error" />
        )}
      </div>
    </Modal>
  );
}

/** Cancels a booking after saying what happens to its fee by the club's cutoff; the slot goes to the waitlist. */
export function CancelDialog({ booking, onClose }: { booking: Booking; onClose: () => void }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const toast = useToast();
  const { cancel } = useBookingActions();
  const settings = useBookingSettings();
  const cutoff = settings.data?.cancelCutoffMinutes ?? 0;
  const refund = refundsNow(booking, cutoff);
  const fee = fmt.money(booking.fee);
  const what =
    booking.fee === 0
      ? t('bookingConsole.cancel.noFee')
      : refund
        ? t('bookingConsole.cancel.refund', { fee, minutes: cutoff })
        : t('bookingConsole.cancel.kept', { fee, minutes: cutoff });
  return (
    <Modal
      open
      title={t('bookingConsole.cancel.title', { name: booking.clientName })}
      onCancel={onClose}
      onOk={() =>
        cancel.mutate(booking.id, {
          onSuccess: (r) => {
            toast.success(
              r.refunded > 0
                ? t('bookingConsole.cancel.doneRefunded', { fee: fmt.money(r.refunded) })
                : t('bookingConsole.cancel.done'),
            );
            onClose();
          },
        })
      }
      okText={t('bookingConsole.cancel.submit')}
      cancelText={t('common.close')}
      okButtonProps={{ danger: true, loading: cancel.isPending, 'data-testid': 'cancel-submit' }}
      destroyOnHidden
    >
      <div data-testid="cancel-dialog">
        <Typography.Paragraph>
          {t('bookingConsole.move.now', {
            date: fmt.instantDate(booking.startsAt),
            time: fmt.time(booking.startsAt),
            room: booking.resourceName,
          })}
        </Typography.Paragraph>
        <Alert
          type={booking.fee > 0 && !refund ? 'warning' : 'info'}
          showIcon
          title={settings.isPending ? '…' : what}
          data-testid="cancel-refund"
        />
        {cancel.error != null && (
          <Alert type="error" showIcon title={errorText(t, cancel.error)} style={{ marginBlockStart: 12 }} />
        )}
      </div>
    </Modal>
  );
}
