import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUS_COLOR_HEX, statusColor } from '@venue/domain';

/** An entrance status in its colour class (seed 000 §4: failed red, entry green, payment cyan). */
export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const cls = statusColor(status);
  const hex = STATUS_COLOR_HEX[cls];
  return (
    <Tag color={cls === 'worthless' ? undefined : hex} data-status-color={cls} style={{ marginInlineEnd: 0 }}>
      {t(`status.${status}`, { defaultValue: String(status) })}
    </Tag>
  );
}
