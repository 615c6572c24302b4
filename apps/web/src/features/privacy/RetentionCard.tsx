import { Button, Card, Descriptions, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RetentionRun } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { useClientFormat } from '../clients/clientFormat';
import { useRetention, useRunRetention } from './usePrivacy';

/**
 * The settings page's retention card (issue 39, docs/privacy.md "Retention"): the rules in force,
 * the first day whose entrances are kept in detail, the last runs of the nightly job and what
 * each removed; the security officer may run it now.
 */
export function RetentionCard() {
  const { t } = useTranslation();
  const toast = useToast();
  const fmt = useClientFormat();
  const allowed = useCan();
  const q = useRetention();
  const run = useRunRetention();
  const r = q.data;
  const removed = (x: RetentionRun) =>
    Object.entries(x.removed)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ') || t('privacy.nothingRemoved');
  return (
    <Card
      size="small"
      title={t('privacy.retentionTitle')}
      data-testid="retention-card"
      extra={
        allowed({ flag: 'roleSecurityOfficer' }) && (
          <Button
            loading={run.isPending}
            onClick={() =>
              run.mutate(undefined, {
                onSuccess: () => toast.success(t('privacy.retentionDone')),
                onError: (err) => toast.error(errorText(t, err)),
              })
            }
            data-testid="retention-run"
          >
            {t('privacy.runNow')}
          </Button>
        )
      }
    >
      {r && (
        <>
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2 }}
            items={[
              { key: 'e', label: t('privacy.entranceDays'), children: t('privacy.days', { n: r.entranceDays }) },
              { key: 'b', label: t('privacy.biometricDays'), children: t('privacy.days', { n: r.biometricDays }) },
              { key: 'a', label: t('privacy.attendanceDays'), children: t('privacy.days', { n: r.attendanceDays }) },
              { key: 'l', label: t('privacy.accessLogDays'), children: t('privacy.days', { n: r.accessLogDays }) },
              { key: 'm', label: t('privacy.moneyKept'), children: t('privacy.sevenYears') },
              {
                key: 'h',
                label: t('privacy.detailFrom'),
                children: r.entranceDetailFrom ? fmt.date(r.entranceDetailFrom) : t('privacy.noRunYet'),
              },
              {
                key: 'v',
                span: 2,
                label: t('privacy.visitorMode'),
                children: r.visitorMode
                  ? t('privacy.visitorWindow', { n: r.visitorWindowHours })
                  : t('privacy.visitorOff'),
              },
            ]}
          />
          <Typography.Title level={5} style={{ marginTop: 12 }}>
            {t('privacy.runs')}
          </Typography.Title>
          <Table<RetentionRun>
            size="small"
            rowKey="id"
            dataSource={r.runs}
            pagination={{ pageSize: 5, hideOnSinglePage: true }}
            columns={[
              { key: 'at', title: t('privacy.at'), render: (_, x) => fmt.dateTime(x.at) },
              { key: 'removed', title: t('privacy.removed'), render: (_, x) => removed(x) },
            ]}
          />
        </>
      )}
    </Card>
  );
}
