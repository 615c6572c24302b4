import { Card, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMinutes, type ScheduleWithLinks } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { errorText } from '../../shared/errors';
import { useGeneralSchedules, useLinkSchedule, useUnlinkSchedule } from '../schedules/useSchedules';
import { useToast } from '../../shared/toast/ToastProvider';

/** General schedules linked to a group (POST/DELETE /ScheduleToGroup); they rank below the group's own rows. */
export function LinkedSchedules({ groupId }: { groupId: number }) {
  const { t } = useTranslation();
  const message = useToast();
  const allowed = useCan();
  const canEdit = allowed({ edit: 'groups' });
  const q = useGeneralSchedules();
  const link = useLinkSchedule();
  const unlink = useUnlinkSchedule();
  const all = q.data ?? [];
  const linked = all.filter((s) => s.links.some((l) => l.groupId === groupId));
  const label = (s: ScheduleWithLinks) => {
    const time = (m: number | null, h: number | null, o: number) =>
      h != null ? `${t(`halachicTime.${h}`)}${o ? ` ${o > 0 ? '+' : ''}${o}` : ''}` : m != null ? formatMinutes(m) : '';
    return `${s.displayName || s.days.map((d) => t(`daysShort.${d}`)).join(',')} · ${time(s.fromTime, s.fromHalachic, s.fromOffset)}–${time(s.toTime, s.toHalachic, s.toOffset)}`;
  };
  return (
    <Card title={t('groups.linkedSchedules')} style={{ marginBlockStart: 16 }} data-testid="linked-schedules">
      <Space wrap>
        {linked.length === 0 && <Typography.Text type="secondary">{t('groups.noLinkedSchedules')}</Typography.Text>}
        {linked.map((s) => {
          const l = s.links.find((x) => x.groupId === groupId)!;
          return (
            <Tag
              key={s.id}
              closable={canEdit}
              onClose={(e) => {
                e.preventDefault();
                void unlink.mutateAsync(l.id).catch((err: unknown) => message.error(errorText(t, err)));
              }}
            >
              <span dir="auto">{label(s)}</span>
            </Tag>
          );
        })}
        {canEdit && (
          <Select<number>
            style={{ minInlineSize: 220 }}
            placeholder={t('groups.linkSchedule')}
            aria-label={t('groups.linkSchedule')}
            value={null as unknown as number}
            loading={q.isPending}
            options={all.filter((s) => !linked.includes(s)).map((s) => ({ value: s.id, label: label(s) }))}
            onChange={(sid) =>
              void link
                .mutateAsync({ scheduleId: sid, groupId })
                .catch((err: unknown) => message.error(errorText(t, err)))
            }
          />
        )}
      </Space>
    </Card>
  );
}
