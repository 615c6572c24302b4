import { useMemo, useState } from 'react';
import { Select, Statistic, Table, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  ENTRANCE_STATUSES,
  EntranceStatus,
  formatMinor,
  isoDate,
  JERUSALEM,
  localParts,
  REASON_KEYS,
  STATUS_COLOR_HEX,
  type EntranceReport,
  type EntranceRow,
  type ReportFilter,
} from '@venue/domain';
import { useSessionData } from '../../app/auth/AuthProvider';
import { useLanguage } from '../../app/i18n/LocaleProvider';
import { useLiveMessages } from '../../app/live/LiveProvider';
import { errorText } from '../../shared/errors';
import { StatusTag } from '../../shared/StatusTag';
import { periodToFilter, ReportFilterBar, type PeriodValue } from '../../reports/ReportFilterBar';
import { useTerminalList } from '../terminals/useTerminals';
import { ENTRANCE_REPORT_KEY, useEntranceReport } from './useEntranceReport';

/** /reports/app-entranceReport: entrances of a period, paged on the server, live. */
export function EntranceReportPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const qc = useQueryClient();
  const terminals = useTerminalList();
  const timeZone = club.location?.timeZone ?? JERUSALEM.timeZone;
  const [period, setPeriod] = useState<PeriodValue>(() => {
    // "Today" is the club's day, not the browser's.
    const today = dayjs(isoDate(localParts(new Date(), timeZone)));
    return { period: 'day', anchor: today, range: [today.subtract(6, 'day'), today] };
  });
  const [status, setStatus] = useState<number[]>([]);
  const [terminalId, setTerminalId] = useState<number | undefined>();
  const [page, setPage] = useState({ page: 1, pageSize: 50 });
  const [fresh, setFresh] = useState<Set<number>>(new Set());

  const filter: ReportFilter = useMemo(
    () => ({
      ...periodToFilter(period),
      page: page.page,
      pageSize: page.pageSize,
      status: status.length ? status : undefined,
      terminalId,
      sort: 'at',
      order: 'desc',
    }),
    [period, page, status, terminalId],
  );
  const query = useEntranceReport(filter);

  // A live entrance that matches the filter appears at the top at once; the refetch follows.
  useLiveMessages((msg) => {
    if (msg.type !== 'entrance' || page.page !== 1) return;
    const row = msg.row;
    if (status.length && !status.includes(row.status)) return;
    if (terminalId && row.terminalId !== terminalId) return;
    qc.setQueryData<EntranceReport>([...ENTRANCE_REPORT_KEY, filter], (old) => {
      if (!old || old.items.some((r) => r.id === row.id)) return old;
      const day = row.at.slice(0, 10);
      if (day < old.range.from.slice(0, 10) || day > old.range.to.slice(0, 10)) return old;
      const approved = row.status === EntranceStatus.Approved ? 1 : 0;
      const failed = row.status >= 2 && row.status <= 13 ? 1 : 0;
      return {
        ...old,
        items: [row, ...old.items].slice(0, page.pageSize),
        total: old.total + 1,
        totals: {
          ...old.totals,
          count: old.totals.count + 1,
          approved: old.totals.approved + approved,
          failed: old.totals.failed + failed,
        },
      };
    });
    setFresh((s) => new Set(s).add(row.id));
  });

  const fmt = useMemo(
    () =>
      new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', {
        dateStyle: 'short',
        timeStyle: 'medium',
        timeZone,
      }),
    [lang, timeZone],
  );
  const locale = lang === 'he' ? 'he-IL' : 'en-US';

  const columns: TableProps<EntranceRow>['columns'] = [
    {
      title: t('report.time'),
      dataIndex: 'at',
      key: 'at',
      render: (v: string) => <span className="ltr-value">{fmt.format(new Date(v))}</span>,
    },
    {
      title: t('report.client'),
      key: 'client',
      render: (_, r) =>
        r.clientName ? (
          <span data-testid="entrance-client">
            {r.clientName}
            {r.clientNumber != null && <Typography.Text type="secondary"> ({r.clientNumber})</Typography.Text>}
          </span>
        ) : (
          <Typography.Text type="secondary">{t('report.unknownClient')}</Typography.Text>
        ),
    },
    {
      title: t('report.group'),
      dataIndex: 'groupName',
      key: 'group',
      responsive: ['md'],
      render: (v: string | null) => v ?? '—',
    },
    {
      title: t('report.terminal'),
      dataIndex: 'terminalName',
      key: 'terminal',
      responsive: ['sm'],
      render: (v: string | null) => v ?? '—',
    },
    { title: t('report.status'), dataIndex: 'status', key: 'status', render: (s: number) => <StatusTag status={s} /> },
    {
      title: t('report.reason'),
      dataIndex: 'reason',
      key: 'reason',
      responsive: ['lg'],
      render: (r: number) => t(`reason.${REASON_KEYS[r] ?? 'unknown'}`, { defaultValue: String(r) }),
    },
    {
      title: t('report.amount'),
      dataIndex: 'amount',
      key: 'amount',
      align: 'end',
      responsive: ['md'],
      render: (v: number) =>
        v ? (
          <span className="ltr-value">
            {club.currencySymbol}
            {formatMinor(v, locale)}
          </span>
        ) : (
          ''
        ),
    },
  ];

  const totals = query.data?.totals;

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.entranceReport')}</Typography.Title>
        {query.data && (
          <span className="page-subtitle ltr-value">
            {query.data.range.from.slice(0, 10)} – {query.data.range.to.slice(0, 10)}
          </span>
        )}
      </div>
      <ReportFilterBar
        value={period}
        onChange={(v) => {
          setPeriod(v);
          setPage((p) => ({ ...p, page: 1 }));
        }}
      >
        <Select
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          style={{ minInlineSize: 200 }}
          placeholder={t('report.allStatuses')}
          value={status}
          onChange={(v: number[]) => {
            setStatus(v);
            setPage((p) => ({ ...p, page: 1 }));
          }}
          options={ENTRANCE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          data-testid="report-status"
        />
        <Select
          allowClear
          style={{ minInlineSize: 160 }}
          placeholder={t('report.allTerminals')}
          value={terminalId}
          onChange={(v: number | undefined) => {
            setTerminalId(v);
            setPage((p) => ({ ...p, page: 1 }));
          }}
          options={(terminals.data?.items ?? []).map((x) => ({ value: x.id, label: x.name }))}
          data-testid="report-terminal"
        />
      </ReportFilterBar>
      <div className="totals-bar" data-testid="entrance-totals" style={{ marginBlockEnd: 12 }}>
        <Statistic title={t('report.totalCount')} value={totals?.count ?? 0} loading={query.isPending} />
        <Statistic
          title={t('report.totalApproved')}
          value={totals?.approved ?? 0}
          loading={query.isPending}
          styles={{ content: { color: STATUS_COLOR_HEX.entry } }}
        />
        <Statistic
          title={t('report.totalFailed')}
          value={totals?.failed ?? 0}
          loading={query.isPending}
          styles={{ content: { color: STATUS_COLOR_HEX.failed } }}
        />
      </div>
      <Table<EntranceRow>
        data-testid="entrance-report-table"
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isFetching && !query.data}
        scroll={{ x: 'max-content' }}
        rowClassName={(r) => (fresh.has(r.id) ? 'entrance-row-new' : '')}
        onRow={(r) => ({ 'data-testid': 'entrance-row', 'data-status': r.status }) as React.HTMLAttributes<HTMLElement>}
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('common.noData') }}
        pagination={{
          current: page.page,
          pageSize: page.pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [25, 50, 100, 200],
          showTotal: (total) => t('common.totalItems', { total }),
          onChange: (p, ps) => setPage({ page: ps !== page.pageSize ? 1 : p, pageSize: ps }),
        }}
        summary={() =>
          totals ? (
            <Table.Summary fixed>
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={columns.length}>
                  <Typography.Text strong data-testid="entrance-totals-row">
                    {t('report.totalsLine', { n: totals.count, approved: totals.approved, failed: totals.failed })}
                  </Typography.Text>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            </Table.Summary>
          ) : null
        }
      />
    </>
  );
}
