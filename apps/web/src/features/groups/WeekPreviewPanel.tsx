import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Space, Tag, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  contract,
  formatMinutes,
  formatDate,
  isoDate,
  JERUSALEM,
  localParts,
  locationDisplayName,
  type PreviewDay,
} from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useDirection, useLanguage } from '../../platform/i18n/LocaleProvider';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { errorText } from '../../shared/errors';
import { ListTable } from '../../shared/CardList';

const STATE_COLORS: Record<number, string> = { 1: 'red', 2: 'green', 3: 'blue', 4: 'gold', 6: 'cyan', 7: 'purple' };

/** Minutes after a day's midnight as HH:mm; past midnight shows the next day's time with a "+1". */
function hhmm(m: number): string {
  return m >= 1440 ? `${formatMinutes(m - 1440)} (+1)` : formatMinutes(m);
}

/**
 * Week preview of a group: for the club's location, the opening
 * windows each day that the saved rows produce, with sunset and nightfall
 * (@hebcal/core on the server) and holiday eves marked.
 */
export function WeekPreviewPanel({ groupId, dirty }: { groupId: number; dirty: boolean }) {
  const { t } = useTranslation();
  const rtl = useDirection() === 'rtl';
  const lang = useLanguage();
  const { club } = useSessionData();
  // Today at the club's location, not the browser's.
  const clubToday = () => isoDate(localParts(new Date(), club.location?.timeZone ?? JERUSALEM.timeZone));
  const [from, setFrom] = useState(clubToday);
  const q = useQuery({
    queryKey: ['groups', groupId, 'week-preview', from, lang],
    queryFn: () => api.call(contract.schedules.weekPreview, { params: { id: groupId }, query: { from, lang } }),
  });
  const shift = (days: number) => setFrom((f) => dayjs(f).add(days, 'day').format('YYYY-MM-DD'));
  const Prev = rtl ? RightOutlined : LeftOutlined;
  const Next = rtl ? LeftOutlined : RightOutlined;

  return (
    <Card
      title={t('weekPreview.title', { location: q.data ? locationDisplayName(q.data.location, lang) : '' })}
      style={{ marginBlockStart: 16 }}
      data-testid="week-preview"
      extra={
        <Space size={4}>
          <Button size="small" icon={<Prev />} aria-label={t('weekPreview.prev')} onClick={() => shift(-7)} />
          <Button size="small" onClick={() => setFrom(clubToday())}>
            {t('weekPreview.today')}
          </Button>
          <Button size="small" icon={<Next />} aria-label={t('weekPreview.next')} onClick={() => shift(7)} />
        </Space>
      }
    >
      {dirty && <Alert type="warning" showIcon style={{ marginBlockEnd: 12 }} title={t('weekPreview.savedOnly')} />}
      <ListTable<PreviewDay>
        size="small"
        rowKey="date"
        loading={q.isFetching}
        dataSource={q.data?.days ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: q.isError ? errorText(t, q.error) : t('common.noData') }}
        rowClassName={(d) => (d.erevChag ? 'erev-chag-row' : '')}
        columns={[
          {
            key: 'day',
            title: t('weekPreview.day'),
            render: (_, d) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>
                  {t(`daysShort.${d.weekday}`)} <span className="ltr-value">{formatDate(d.date)}</span>
                </Typography.Text>
                <Typography.Text type="secondary" dir="auto">
                  {d.hebrewDate}
                </Typography.Text>
                {d.erevChag && (
                  <Tag color="magenta" data-testid="erev-chag">
                    {t('daysShort.7')}
                  </Tag>
                )}
                {d.holidays.map((h) => (
                  <Typography.Text key={h} type="secondary" dir="auto">
                    {h}
                  </Typography.Text>
                ))}
              </Space>
            ),
          },
          {
            key: 'sun',
            title: t('weekPreview.sun'),
            render: (_, d) => (
              <Space orientation="vertical" size={0} className="nowrap">
                <span>
                  {t('halachicTime.6')}: <span className="ltr-value">{d.sunset == null ? '—' : hhmm(d.sunset)}</span>
                </span>
                <span data-testid="nightfall">
                  {t('halachicTime.7')}:{' '}
                  <span className="ltr-value">{d.nightfall == null ? '—' : hhmm(d.nightfall)}</span>
                </span>
              </Space>
            ),
          },
          {
            key: 'windows',
            title: t('weekPreview.hours'),
            render: (_, d) =>
              d.windows.length === 0 ? (
                <Tag color={STATE_COLORS[q.data?.defaultEntranceState ?? 1]}>
                  {t('weekPreview.allDay', { state: t(`entranceState.${q.data?.defaultEntranceState ?? 1}`) })}
                </Tag>
              ) : (
                <Space orientation="vertical" size={2} data-testid={`windows-${d.date}`}>
                  {d.windows.map((w) => (
                    <span key={`${w.rowId}-${w.from}`} className="nowrap">
                      <span className="ltr-value">
                        {hhmm(w.from)}–{hhmm(w.to)}
                      </span>{' '}
                      <Tag color={STATE_COLORS[w.entranceState]}>{t(`entranceState.${w.entranceState}`)}</Tag>
                      {w.displayName && <span dir="auto">{w.displayName} </span>}
                      {w.source === 'general' && <Tag>{t('weekPreview.general')}</Tag>}
                    </span>
                  ))}
                </Space>
              ),
          },
        ]}
      />
    </Card>
  );
}
