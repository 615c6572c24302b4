import {
  Alert,
  Button,
  Checkbox,
  Col,
  DatePicker,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  TimePicker,
  Tooltip,
  Typography,
  type TableProps,
} from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { ENTRANCE_STATES, HALACHIC_TIMES, HOLIDAY_EVE_DAY } from '@venue/domain';
import { MoneyInput } from '../../shared/MoneyInput';
import { emptyRow, moveRow, type EditableRow } from './scheduleRows';
import { ListTable, type CardColumn } from '../../shared/CardList';

const DAYS = [0, 1, 2, 3, 4, 5, 6, HOLIDAY_EVE_DAY] as const;

type Edge = 'from' | 'to';

function TimeEdgeEditor({
  row,
  edge,
  onChange,
  error,
}: {
  row: EditableRow;
  edge: Edge;
  onChange: (patch: Partial<EditableRow>) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const halachic = edge === 'from' ? row.fromHalachic : row.toHalachic;
  const fixed = edge === 'from' ? row.fromTime : row.toTime;
  const offset = edge === 'from' ? row.fromOffset : row.toOffset;
  const mode = halachic != null ? 'halachic' : 'fixed';
  const set = (h: number | null, time: number | null, off: number) =>
    onChange(
      edge === 'from'
        ? { fromHalachic: h as EditableRow['fromHalachic'], fromTime: time, fromOffset: off }
        : { toHalachic: h as EditableRow['toHalachic'], toTime: time, toOffset: off },
    );
  return (
    <Space orientation="vertical" size={4} style={{ minInlineSize: 170 }}>
      <Select
        size="small"
        value={mode}
        aria-label={t(edge === 'from' ? 'schedule.from' : 'schedule.to')}
        style={{ inlineSize: '100%' }}
        onChange={(m) => (m === 'fixed' ? set(null, fixed ?? 0, 0) : set(6, null, 0))}
        options={[
          { value: 'fixed', label: t('schedule.fixedTime') },
          { value: 'halachic', label: t('schedule.halachicTime') },
        ]}
      />
      {mode === 'fixed' ? (
        <TimePicker
          size="small"
          format="HH:mm"
          minuteStep={5}
          needConfirm={false}
          aria-label={`${t(edge === 'from' ? 'schedule.from' : 'schedule.to')} — ${t('schedule.fixedTime')}`}
          status={error ? 'error' : undefined}
          style={{ inlineSize: '100%' }}
          value={fixed == null ? null : dayjs().startOf('day').add(fixed, 'minute')}
          onChange={(v) => set(null, v ? v.hour() * 60 + v.minute() : null, 0)}
        />
      ) : (
        <Space.Compact style={{ inlineSize: '100%' }}>
          <Select
            size="small"
            style={{ inlineSize: '65%' }}
            aria-label={`${t(edge === 'from' ? 'schedule.from' : 'schedule.to')} — ${t('schedule.halachicTime')}`}
            value={halachic}
            onChange={(h: number) => set(h, null, offset)}
            options={HALACHIC_TIMES.map((h) => ({ value: h, label: t(`halachicTime.${h}`) }))}
          />
          <InputNumber
            size="small"
            style={{ inlineSize: '35%' }}
            value={offset}
            min={-720}
            max={720}
            step={5}
            aria-label={t('schedule.offset')}
            title={t('schedule.offset')}
            onChange={(v) => set(halachic, null, Number(v ?? 0))}
          />
        </Space.Compact>
      )}
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Space>
  );
}

/** The other fields of a schedule entry (seed 001 §3): dates, price per beat, names, quantities, minutes, priority. */
function RowDetails({
  row,
  onChange,
  currencySymbol,
  err,
  index,
}: {
  row: EditableRow;
  onChange: (patch: Partial<EditableRow>) => void;
  currencySymbol: string;
  err: (i: number, f: string) => string | undefined;
  index: number;
}) {
  const { t } = useTranslation();
  const d = (s: string | null) => (s ? dayjs(s) : null);
  const iso = (v: Dayjs | null) => (v ? v.format('YYYY-MM-DD') : null);
  // Each field's visible name is its <label> (docs/accessibility.md).
  const fid = (k: string) => `schedule-${index}-${k}`;
  const label = (k: string) => (
    <label htmlFor={fid(k)} className="schedule-field-label">
      <Typography.Text type="secondary">{t(`schedule.${k}`)}</Typography.Text>
    </label>
  );
  return (
    <Row gutter={[12, 8]} className="schedule-details" data-testid={`schedule-details-${index}`}>
      <Col xs={12} md={6} lg={4}>
        {label('fromDate')}
        <DatePicker
          id={fid('fromDate')}
          size="small"
          style={{ inlineSize: '100%' }}
          format="DD/MM/YYYY"
          value={d(row.fromDate)}
          onChange={(v) => onChange({ fromDate: iso(v) })}
        />
      </Col>
      <Col xs={12} md={6} lg={4}>
        {label('toDate')}
        <DatePicker
          id={fid('toDate')}
          size="small"
          style={{ inlineSize: '100%' }}
          format="DD/MM/YYYY"
          status={err(index, 'toDate') ? 'error' : undefined}
          value={d(row.toDate)}
          onChange={(v) => onChange({ toDate: iso(v) })}
        />
        {err(index, 'toDate') && <Typography.Text type="danger">{err(index, 'toDate')}</Typography.Text>}
      </Col>
      <Col xs={12} md={6} lg={4}>
        {label('pricePerBeat')}
        <MoneyInput
          id={fid('pricePerBeat')}
          value={row.pricePerBeat}
          symbol={currencySymbol}
          onChange={(v) => onChange({ pricePerBeat: v ?? Number.NaN })}
        />
      </Col>
      <Col xs={12} md={6} lg={4}>
        {label('maxPurchaseQty')}
        <InputNumber
          id={fid('maxPurchaseQty')}
          size="small"
          min={0}
          style={{ inlineSize: '100%' }}
          value={row.maxPurchaseQty}
          onChange={(v) => onChange({ maxPurchaseQty: Number(v ?? 0) })}
        />
      </Col>
      <Col xs={12} md={6} lg={4}>
        {label('minutes')}
        <InputNumber
          id={fid('minutes')}
          size="small"
          min={0}
          style={{ inlineSize: '100%' }}
          suffix={t('common.minutesShort')}
          value={row.minutes}
          onChange={(v) => onChange({ minutes: Number(v ?? 0) })}
        />
      </Col>
      <Col xs={12} md={6} lg={4}>
        {label('priority')}
        <InputNumber
          id={fid('priority')}
          size="small"
          style={{ inlineSize: '100%' }}
          value={row.priority}
          onChange={(v) => onChange({ priority: Number(v ?? 0) })}
        />
      </Col>
      <Col xs={24} md={12} lg={8}>
        {label('displayName')}
        <Input
          id={fid('displayName')}
          size="small"
          maxLength={60}
          value={row.displayName}
          onChange={(e) => onChange({ displayName: e.target.value })}
          data-testid={`schedule-displayName-${index}`}
        />
      </Col>
      <Col xs={24} md={12} lg={16}>
        {label('description')}
        <Input
          id={fid('description')}
          size="small"
          maxLength={200}
          value={row.description}
          onChange={(e) => onChange({ description: e.target.value })}
        />
      </Col>
    </Row>
  );
}

/** What the schedule columns need from the editor. */
interface ColumnContext {
  t: TFunction;
  rows: EditableRow[];
  onChange: (rows: EditableRow[]) => void;
  /** Patches the row at an index. */
  update: (index: number, patch: Partial<EditableRow>) => void;
  /** The error of a row's field, if any. */
  err: (index: number, field: string) => string | undefined;
  currencySymbol: string;
  terminals: { id: number; name: string }[];
}

type ScheduleColumn = NonNullable<TableProps<EditableRow>['columns']>[number];

/** Move a row up or down (the lower row wins on overlap). */
function orderColumn({ t, rows, onChange }: ColumnContext): ScheduleColumn {
  return {
    title: t('schedule.order'),
    key: 'order',
    width: 72,
    render: (_, _r, i) => (
      <Space orientation="vertical" size={2}>
        <Tooltip title={t('schedule.moveUp')}>
          <Button
            size="small"
            icon={<ArrowUpOutlined />}
            disabled={i === 0}
            aria-label={t('schedule.moveUp')}
            data-testid={`schedule-up-${i}`}
            onClick={() => onChange(moveRow(rows, i, -1))}
          />
        </Tooltip>
        <Tooltip title={t('schedule.moveDown')}>
          <Button
            size="small"
            icon={<ArrowDownOutlined />}
            disabled={i === rows.length - 1}
            aria-label={t('schedule.moveDown')}
            data-testid={`schedule-down-${i}`}
            onClick={() => onChange(moveRow(rows, i, 1))}
          />
        </Tooltip>
      </Space>
    ),
  };
}

/** Days, from, to, entrance state, price (agorot) and terminal of each row. */
function rowColumns({ t, update, err, currencySymbol, terminals }: ColumnContext): ScheduleColumn[] {
  return [
    {
      title: t('schedule.days'),
      key: 'days',
      render: (_, r, i) => (
        <>
          <Checkbox.Group
            className="days-group"
            aria-label={t('schedule.days')}
            value={r.days}
            onChange={(v) => update(i, { days: [...(v as number[])].sort((a, b) => a - b) })}
            options={DAYS.map((d) => ({ value: d, label: t(`daysShort.${d}`) }))}
          />
          {err(i, 'days') && (
            <div>
              <Typography.Text type="danger">{err(i, 'days')}</Typography.Text>
            </div>
          )}
        </>
      ),
    },
    {
      title: t('schedule.from'),
      key: 'from',
      render: (_, r, i) => (
        <TimeEdgeEditor row={r} edge="from" error={err(i, 'fromTime')} onChange={(p) => update(i, p)} />
      ),
    },
    {
      title: t('schedule.to'),
      key: 'to',
      render: (_, r, i) => <TimeEdgeEditor row={r} edge="to" error={err(i, 'toTime')} onChange={(p) => update(i, p)} />,
    },
    {
      title: t('groups.entranceState'),
      key: 'entranceState',
      render: (_, r, i) => (
        <Select
          size="small"
          style={{ minInlineSize: 150 }}
          aria-label={t('groups.entranceState')}
          value={r.entranceState}
          onChange={(v) => update(i, { entranceState: v })}
          options={ENTRANCE_STATES.map((s) => ({ value: s, label: t(`entranceState.${s}`) }))}
        />
      ),
    },
    {
      title: t('schedule.price'),
      key: 'price',
      render: (_, r, i) => (
        <div style={{ inlineSize: 110 }}>
          <MoneyInput
            value={r.price}
            aria-label={t('schedule.price')}
            symbol={currencySymbol}
            status={err(i, 'price') ? 'error' : undefined}
            onChange={(v) => update(i, { price: v ?? Number.NaN })}
          />
          {err(i, 'price') && <Typography.Text type="danger">{err(i, 'price')}</Typography.Text>}
        </div>
      ),
    },
    {
      title: t('schedule.terminal'),
      key: 'terminal',
      render: (_, r, i) => (
        <Select
          size="small"
          allowClear
          style={{ minInlineSize: 140 }}
          placeholder={t('schedule.allTerminals')}
          aria-label={t('schedule.terminal')}
          value={r.terminalId ?? undefined}
          onChange={(v: number | undefined) => update(i, { terminalId: v ?? null })}
          options={terminals.map((x) => ({ value: x.id, label: x.name }))}
        />
      ),
    },
  ];
}

/** Delete a row. */
function deleteColumn({ t, rows, onChange }: ColumnContext): ScheduleColumn {
  return {
    key: 'delete',
    width: 48,
    render: (_, _r, i) => (
      <Button
        size="small"
        danger
        type="text"
        icon={<DeleteOutlined />}
        aria-label={t('common.delete')}
        data-testid={`schedule-delete-${i}`}
        onClick={() => onChange(rows.filter((_x, j) => j !== i))}
      />
    ),
  };
}

export interface ScheduleEditorProps {
  rows: EditableRow[];
  onChange: (rows: EditableRow[]) => void;
  terminals: { id: number; name: string }[];
  currencySymbol: string;
  /** Field errors by `${index}.${field}`. */
  errors: Record<string, string>;
  /** One row edited on its own (a general schedule): no order, add or delete. */
  single?: boolean;
}

/**
 * The times-and-prices schedule of a group (seed 001 §3 "Schedule entry"):
 * rows in list order, the lower row wins on overlap (seed 001 §4).
 */
export function ScheduleEditor({ rows, onChange, terminals, currencySymbol, errors, single }: ScheduleEditorProps) {
  const { t } = useTranslation();
  const update = (index: number, patch: Partial<EditableRow>) =>
    onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const err = (i: number, f: string) => errors[`${i}.${f}`];

  const ctx: ColumnContext = { t, rows, onChange, update, err, currencySymbol, terminals };
  const allColumns = [orderColumn(ctx), ...rowColumns(ctx), deleteColumn(ctx)];

  const columns = single ? allColumns.filter((c) => c.key !== 'order' && c.key !== 'delete') : allColumns;
  const detailErrors = (i: number) => ['toDate', 'pricePerBeat', 'displayName'].some((f) => err(i, f));

  return (
    <>
      {!single && <Alert className="schedule-hint" type="info" showIcon title={t('schedule.lowerWins')} />}
      <ListTable<EditableRow>
        data-testid="schedule-table"
        size="small"
        rowKey="key"
        columns={columns as CardColumn<EditableRow>[]}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('schedule.empty') }}
        expandable={{
          defaultExpandAllRows: single,
          expandedRowKeys: single ? rows.map((r) => r.key) : undefined,
          showExpandColumn: !single,
          rowExpandable: () => true,
          expandedRowRender: (r, i) => (
            <RowDetails row={r} index={i} err={err} currencySymbol={currencySymbol} onChange={(p) => update(i, p)} />
          ),
          expandIcon: single
            ? undefined
            : ({ expanded, onExpand, record }) => {
                const i = rows.indexOf(record);
                return (
                  <Button
                    size="small"
                    type={detailErrors(i) ? 'primary' : 'default'}
                    danger={detailErrors(i)}
                    onClick={(e) => onExpand(record, e)}
                    data-testid={`schedule-more-${i}`}
                  >
                    {expanded ? t('schedule.less') : t('schedule.more')}
                  </Button>
                );
              },
        }}
      />
      {!single && (
        <Button
          icon={<PlusOutlined />}
          style={{ marginBlockStart: 12 }}
          onClick={() => onChange([...rows, emptyRow()])}
          data-testid="schedule-add"
        >
          {t('schedule.addRow')}
        </Button>
      )}
    </>
  );
}
