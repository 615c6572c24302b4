import { Button, Checkbox, Divider, Drawer, Input, InputNumber, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDrawerSide } from '../../platform/i18n/LocaleProvider';
import { useCan } from '../../platform/auth/useCan';
import { defaultPrefs, type CalendarPrefs } from './calendarOptions';
import { useFeedLink } from './useCalendar';
import { useLanguage } from '../../platform/i18n/LocaleProvider';

const SHOW = ['candlelighting', 'sedrot', 'omer', 'molad', 'shabbatMevarchim', 'yomKippurKatan'] as const;
const LEARN = ['dafYomi', 'mishnaYomi', 'nachYomi'] as const;
const HIDE = ['noHolidays', 'noMinorFast', 'noModern', 'noRoshChodesh', 'noSpecialShabbat'] as const;
const MORE = ['addHebrewDatesForEvents', 'hour12', 'useElevation'] as const;
const NUMS = [
  ['candleLightingMins', 0, 90, 1],
  ['havdalahMins', 0, 180, 1],
  ['havdalahDeg', 0, 18, 0.1],
  ['fastEndDeg', 0, 18, 0.001],
] as const;

/** The calendar's options (seed 001 §9), saved per user at once; and the club's feed link. */
export function OptionsDrawer(props: {
  open: boolean;
  onClose: () => void;
  prefs: CalendarPrefs;
  onChange: (p: CalendarPrefs) => void;
}) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const placement = useDrawerSide('end');
  const { prefs, onChange } = props;
  const set = (patch: Partial<CalendarPrefs>) => onChange({ ...prefs, ...patch });
  const boxes = (keys: readonly (keyof CalendarPrefs)[]) => (
    <Space orientation="vertical" size={2}>
      {keys.map((k) => (
        <Checkbox key={k} checked={prefs[k] === true} onChange={(e) => set({ [k]: e.target.checked })} data-opt={k}>
          {t(`calendar.opt.${k}`)}
        </Checkbox>
      ))}
    </Space>
  );
  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      placement={placement}
      title={t('calendar.options')}
      size={360}
      data-testid="calendar-options"
    >
      <Typography.Title level={5}>{t('calendar.show')}</Typography.Title>
      {boxes(SHOW)}
      <Divider />
      <Typography.Title level={5}>{t('calendar.learning')}</Typography.Title>
      {boxes(LEARN)}
      <div style={{ marginBlockStart: 8 }}>
        {t('calendar.opt.yerushalmi')}{' '}
        <Radio.Group
          value={prefs.yerushalmi}
          onChange={(e) => set({ yerushalmi: e.target.value })}
          size="small"
          optionType="button"
          options={[0, 1, 2].map((v) => ({ value: v, label: t(`calendar.yerushalmi.${v}`) }))}
        />
      </div>
      <Divider />
      <Typography.Title level={5}>{t('calendar.hide')}</Typography.Title>
      {boxes(HIDE)}
      <Divider />
      {boxes(MORE)}
      <Divider />
      <Space orientation="vertical" style={{ inlineSize: '100%' }}>
        {NUMS.map(([k, min, max, step]) => (
          <label key={k} className="cal-num">
            <span>{t(`calendar.opt.${k}`)}</span>
            <InputNumber
              min={min}
              max={max}
              step={step}
              value={prefs[k]}
              placeholder={t('calendar.auto')}
              disabled={k === 'havdalahDeg' && prefs.havdalahMins !== null}
              onChange={(v) => set({ [k]: v ?? null })}
            />
          </label>
        ))}
      </Space>
      <Button style={{ marginBlockStart: 12 }} onClick={() => onChange(defaultPrefs(lang))}>
        {t('calendar.reset')}
      </Button>
      <Divider />
      <FeedLink />
    </Drawer>
  );
}

function FeedLink() {
  const { t } = useTranslation();
  const canEdit = useCan()({ flag: 'roleEditGeneralSettings' });
  const { link, rotate } = useFeedLink();
  const url = link.data?.path ? new URL(link.data.path, window.location.origin).toString() : null;
  return (
    <div data-testid="feed-link">
      <Typography.Title level={5}>{t('calendar.feed.title')}</Typography.Title>
      <Typography.Paragraph className="cal-muted">{t('calendar.feed.help')}</Typography.Paragraph>
      {url ? (
        <Input readOnly value={url} dir="ltr" onFocus={(e) => e.target.select()} />
      ) : (
        <Typography.Text>{t('calendar.feed.none')}</Typography.Text>
      )}
      {canEdit && (
        <Button style={{ marginBlockStart: 8 }} loading={rotate.isPending} onClick={() => rotate.mutate()}>
          {url ? t('calendar.feed.rotate') : t('calendar.feed.create')}
        </Button>
      )}
    </div>
  );
}
