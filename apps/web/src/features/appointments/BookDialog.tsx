import { useMemo, useState } from 'react';
import { Alert, DatePicker, Form, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import {
  BOOKING_RESOURCE_KINDS,
  codeI18nKey,
  PaymentMethod,
  type BookingResourceKind,
  type FrontDeskMatch,
} from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useFormat } from '../../shared/useFormat';
import { useToast } from '../../shared/toast/ToastProvider';
import { newKey } from '../client-money/useMoney';
import { ClientFind, useGroups } from './parts';
import { useBookingActions, useSlots } from './useAppointments';

/** Where a booking dialog opens: a date, and from a slot its room and start; `waitlist` puts her on the list. */
export interface BookStart {
  date: string;
  kind?: BookingResourceKind;
  resourceId?: number;
  startsAt?: string;
  groupId?: number;
  mode?: 'book' | 'waitlist';
}

/** Payment methods staff take for a room's fee at booking: cash, or the client's balance (7). */
const FEE_METHODS = [PaymentMethod.Cash, 7] as const;

/** A free slot of a date as one choice: "room|startsAt". */
const slotValue = (resourceId: number, startsAt: string) => `${resourceId}|${startsAt}`;

/** The free slots of `date` for a group and a kind, each "HH:MM · room". */
export function useFreeSlots(date: string, groupId: number | undefined, kind: BookingResourceKind | undefined) {
  const fmt = useFormat();
  const slots = useSlots(date, groupId, kind);
  const options = useMemo(() => {
    const data = slots.data;
    const day = data?.days.find((d) => d.date === date);
    return (day?.slots ?? [])
      .filter((s) => s.free)
      .map((s) => {
        const room = data!.resources.find((r) => r.id === s.resourceId);
        return {
          value: slotValue(s.resourceId, s.startsAt),
          label: `${fmt.time(s.startsAt)} · ${room?.name ?? ''}`,
          fee: room?.fee ?? 0,
        };
      });
  }, [slots.data, date, fmt]);
  return { options, loading: slots.isPending, groupId: slots.data?.groupId ?? undefined };
}

/**
 * Staff book a client (a phone booking, a walk-in; docs/appointments.md "Booking"): the client by
 * the front desk's search, the date, the room kind and a free time. A room with a fee is paid in
 * cash or from her balance through the purchase path. In `waitlist` mode she is put on the date's
 * waitlist for the kind instead. The server's refusal (taken, not her group's…) shows translated.
 */
export function BookDialog({ start, onClose }: { start: BookStart; onClose: () => void }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const toast = useToast();
  const actions = useBookingActions();
  const groups = useGroups();
  const waitlist = start.mode === 'waitlist';
  const [client, setClient] = useState<FrontDeskMatch | null>(null);
  const [date, setDate] = useState(start.date);
  const [kind, setKind] = useState<BookingResourceKind | undefined>(start.kind);
  const [slot, setSlot] = useState<string | undefined>(
    start.resourceId && start.startsAt ? slotValue(start.resourceId, start.startsAt) : undefined,
  );
  const [method, setMethod] = useState<number>(PaymentMethod.Cash);
  const [key] = useState(() => newKey('booking'));
  // Her group's windows make her slots: the group named on the found client, else the page's.
  const clientGroup = groups.data?.find((g) => client?.groupName != null && g.name === client.groupName)?.id;
  const free = useFreeSlots(date, clientGroup ?? start.groupId, kind);
  const chosen = free.options.find((o) => o.value === slot);
  const pending = actions.book.isPending || actions.addWaitlist.isPending;
  const error = actions.book.error ?? actions.addWaitlist.error;
  const ready = client != null && (waitlist ? kind != null : chosen != null);

  const submit = () => {
    if (!client) return;
    if (waitlist) {
      if (!kind) return;
      actions.addWaitlist.mutate(
        { clientId: client.id, date, kind },
        { onSuccess: () => (toast.success(t('bookingConsole.waitlist.added')), onClose()) },
      );
      return;
    }
    if (!chosen) return;
    const [resourceId, startsAt] = chosen.value.split('|');
    actions.book.mutate(
      {
        resourceId: Number(resourceId),
        startsAt,
        clientId: client.id,
        idempotencyKey: key,
        ...(chosen.fee > 0 ? { payments: [{ method: method as 0, amount: chosen.fee, keepExcess: false }] } : {}),
      },
      { onSuccess: (b) => (toast.success(t('bookingConsole.book.done', { time: fmt.time(b.startsAt) })), onClose()) },
    );
  };

  return (
    <Modal
      open
      title={t(waitlist ? 'bookingConsole.waitlist.add' : 'bookingConsole.book.title')}
      onCancel={onClose}
      onOk={submit}
      okText={t(waitlist ? 'bookingConsole.waitlist.add' : 'bookingConsole.book.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: pending, disabled: !ready, 'data-testid': 'book-submit' }}
      destroyOnHidden
    >
      <div data-testid="book-dialog">
        <Form layout="vertical">
          <Form.Item label={t('bookingConsole.book.client')} htmlFor="book-client" required>
            <ClientFind id="book-client" value={client} onChange={setClient} testId="book-client" />
          </Form.Item>
          <Form.Item label={t('bookingConsole.book.date')} htmlFor="book-date">
            <DatePicker
              id="book-date"
              value={dayjs(date)}
              allowClear={false}
              format="DD/MM/YYYY"
              onChange={(v) => v && (setDate(v.format('YYYY-MM-DD')), setSlot(undefined))}
              data-testid="book-date"
            />
          </Form.Item>
          <Form.Item label={t('bookingConsole.book.kind')} htmlFor="book-kind" required={waitlist}>
            <Select
              id="book-kind"
              allowClear={!waitlist}
              value={kind}
              placeholder={t('bookingConsole.week.allKinds')}
              onChange={(v?: BookingResourceKind) => (setKind(v), setSlot(undefined))}
              data-testid="book-kind"
              options={BOOKING_RESOURCE_KINDS.map((k) => ({ value: k, label: t(codeI18nKey('bookingKind', k)) }))}
            />
          </Form.Item>
          {!waitlist && (
            <Form.Item label={t('bookingConsole.book.time')} htmlFor="book-time" required>
              <Select
                id="book-time"
                value={chosen ? slot : undefined}
                loading={free.loading}
                onChange={setSlot}
                placeholder={t('bookingConsole.book.timePlaceholder')}
                notFoundContent={t('bookingConsole.book.noFree')}
                data-testid="book-time"
                options={free.options.map((o) => ({ value: o.value, label: o.label }))}
              />
            </Form.Item>
          )}
          {!waitlist && chosen && chosen.fee > 0 && (
            <Form.Item label={t('bookingConsole.book.payWith', { fee: fmt.money(chosen.fee) })} htmlFor="book-method">
              <Select
                id="book-method"
                value={method}
                onChange={setMethod}
                data-testid="book-method"
                options={FEE_METHODS.map((m) => ({ value: m, label: t(codeI18nKey('paymentMethod', m)) }))}
              />
            </Form.Item>
          )}
          {!waitlist && chosen && chosen.fee === 0 && (
            <Typography.Paragraph type="secondary">{t('bookingConsole.book.included')}</Typography.Paragraph>
          )}
        </Form>
        {error != null && <Alert type="error" showIcon title={errorText(t, error)} data-testid="book-error" />}
      </div>
    </Modal>
  );
}
