import { useState } from 'react';
import { Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contract, type BookingStatus, type FrontDeskMatch } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useCan } from '../../platform/auth/useCan';
import { useDebounced } from '../../shared/useDebounced';

/**
 * Pieces shared by the booking screens (docs/appointments.md "The console"): the club's groups,
 * the client search, times of day and the colours of a booking's states.
 */

/** The club's groups for the pickers, when the user may list them (else none: the rooms show "#id"). */
export function useGroups() {
  const allowed = useCan();
  const may = allowed({ route: contract.groups.list.access });
  return useQuery({
    queryKey: ['bookings', 'groups'],
    enabled: may,
    queryFn: () => api.call(contract.groups.list).then((p) => p.items.map((g) => ({ id: g.id, name: g.name }))),
  });
}

/** The tag colour of each booking state on the lists and the timeline. */
export const STATUS_COLORS: Record<BookingStatus, string> = {
  offered: 'purple',
  booked: 'blue',
  checkedIn: 'cyan',
  preparing: 'gold',
  immersed: 'geekblue',
  done: 'green',
  noShow: 'red',
  cancelled: 'default',
};

/** A found client's one line: name, number, group. */
export const clientLine = (c: FrontDeskMatch) =>
  `${`${c.firstName} ${c.lastName}`.trim()} · #${c.number}${c.groupName ? ` · ${c.groupName}` : ''}`;

/**
 * The client picker: the front desk's search (card, code or member number, name, phone, ID) as
 * the user types. Needs the client-list permission; without it, a note says so.
 */
export function ClientFind({
  value,
  onChange,
  id,
  testId,
}: {
  value?: FrontDeskMatch | null;
  onChange?: (c: FrontDeskMatch | null) => void;
  id?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const allowed = useCan();
  const may = allowed({ route: contract.frontDesk.find.access });
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), 300);
  const found = useQuery({
    queryKey: ['bookings', 'find', q],
    enabled: may && q !== '',
    queryFn: ({ signal }) => api.call(contract.frontDesk.find, { query: { q }, signal }),
  });
  if (!may) return <Typography.Text type="secondary">{t('bookingConsole.book.noClientSearch')}</Typography.Text>;
  const items = found.data?.items ?? [];
  const options = [...(value && !items.some((c) => c.id === value.id) ? [value] : []), ...items];
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setText }}
      allowClear
      value={value?.id}
      placeholder={t('bookingConsole.book.clientPlaceholder')}
      notFoundContent={
        q === '' ? null : found.isFetching ? t('bookingConsole.book.searching') : t('bookingConsole.book.noClient')
      }
      loading={found.isFetching}
      data-testid={testId}
      options={options.map((c) => ({ value: c.id, label: clientLine(c) }))}
      onChange={(v: number | undefined) => onChange?.(options.find((c) => c.id === v) ?? null)}
    />
  );
}
