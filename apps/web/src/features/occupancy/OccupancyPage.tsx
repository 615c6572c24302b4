import { useState } from 'react';
import { Button, Card, DatePicker, Form, Input, InputNumber, List, Modal, Select, Space, Tag, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { contract, type AreaRecord, type CardSharingReport, type InsideList } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useCan } from '../../platform/auth/useCan';
import { ListTable } from '../../shared/CardList';
import { QueryState } from '../../shared/QueryState';
import { errorText } from '../../shared/errors';
import { useFormat } from '../../shared/useFormat';
import { useToast } from '../../shared/toast/ToastProvider';
import { useAreaEdit, useAreas, useCheckOut, useInside } from './useOccupancy';
import './occupancy.css';

/**
 * Who is inside now (issue 36; docs/gate-safety.md "Occupancy"): everyone inside by area with when
 * they entered (names only for users who may see clients), the attendant's check-out, the
 * evacuation roll-call printout, the club's areas (terminals grouped, capacity, maximum stay,
 * anti-passback) for those who edit terminals, and the card-sharing report.
 */
export function OccupancyPage() {
  const { t } = useTranslation();
  const allowed = useCan();
  const inside = useInside();
  const areas = useAreas();
  const byArea = groupByArea(inside.data);
  return (
    <div className="occupancy" data-testid="occupancy-page">
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.occupancy')}</Typography.Title>
        <Button icon={<PrinterOutlined />} onClick={() => window.print()} data-testid="roll-call-print">
          {t('occupancy.rollCall')}
        </Button>
      </div>
      <QueryState loading={inside.isPending} error={inside.error} onRetry={() => void inside.refetch()}>
        <section className="roll-call" data-testid="roll-call">
          <Typography.Title level={4} className="print-only">
            {t('occupancy.rollCallTitle', { at: dayjs().format('DD/MM/YYYY HH:mm') })}
          </Typography.Title>
          <Typography.Paragraph data-testid="inside-total">
            {t('occupancy.insideTotal', { count: inside.data?.items.length ?? 0 })}
          </Typography.Paragraph>
          {byArea.map(([area, people]) => (
            <InsideCard key={area} area={area} people={people} names={inside.data?.names ?? false} />
          ))}
        </section>
      </QueryState>
      {allowed({ edit: 'terminals' }) && (
        <QueryState loading={areas.isPending} error={areas.error}>
          <AreasCard areas={areas.data?.items ?? []} />
        </QueryState>
      )}
      {allowed({ flag: 'roleEntrancesReport' }) && <CardSharingCard />}
    </div>
  );
}

type Person = InsideList['items'][number];
type SharingRow = CardSharingReport['items'][number];

function groupByArea(data: InsideList | undefined): [string, Person[]][] {
  const m = new Map<string, Person[]>();
  for (const p of data?.items ?? []) m.set(p.areaName, [...(m.get(p.areaName) ?? []), p]);
  return [...m.entries()];
}

/** One area's people: name (or "a client"), since when, a box to tick at the roll-call, check-out. */
function InsideCard({ area, people, names }: { area: string; people: Person[]; names: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const allowed = useCan();
  const toast = useToast();
  const checkOut = useCheckOut();
  const mayCheckOut = names && allowed({ flag: 'roleCheckInClients' });
  return (
    <Card size="small" title={`${area} · ${people.length}`} className="inside-card" data-testid="inside-area">
      <List
        size="small"
        dataSource={people}
        renderItem={(p, i) => (
          <List.Item
            actions={
              mayCheckOut && p.clientId != null
                ? [
                    <Button
                      key="out"
                      size="small"
                      className="no-print"
                      onClick={() => checkOut.mutate(p.clientId!, { onError: (e) => toast.error(errorText(t, e)) })}
                    >
                      {t('occupancy.checkOut')}
                    </Button>,
                  ]
                : []
            }
          >
            <span className="roll-box" aria-hidden>
              ☐
            </span>{' '}
            {p.name ? `${p.name} · #${p.number}` : t('occupancy.someone', { n: i + 1 })}{' '}
            <Typography.Text type="secondary">{t('occupancy.since', { at: fmt.time(p.enteredAt) })}</Typography.Text>
          </List.Item>
        )}
      />
    </Card>
  );
}

const APB = [0, 1, 2] as const;

/** The club's areas, each with its terminals and rules; new, edit and delete. */
function AreasCard({ areas }: { areas: AreaRecord[] }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<AreaRecord | 'new' | null>(null);
  const edit = useAreaEdit();
  return (
    <Card
      title={t('occupancy.areas')}
      className="no-print"
      data-testid="areas-card"
      extra={
        <Button type="primary" onClick={() => setEditing('new')} data-testid="area-new">
          {t('occupancy.newArea')}
        </Button>
      }
    >
      <ListTable<AreaRecord>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={areas}
        columns={[
          { title: t('occupancy.name'), dataIndex: 'name' },
          { title: t('occupancy.capacity'), dataIndex: 'capacity', render: (v: number) => v || '—' },
          { title: t('occupancy.maxStay'), dataIndex: 'maxStayMinutes', render: (v: number) => v || '—' },
          {
            title: t('occupancy.antiPassback'),
            dataIndex: 'antiPassback',
            render: (v: number) => <Tag>{t(`occupancy.apb.${v}`)}</Tag>,
          },
          { title: t('occupancy.terminals'), dataIndex: 'terminalIds', render: (v: number[]) => v.length },
          {
            key: 'actions',
            render: (_: unknown, a: AreaRecord) => (
              <Space>
                <Button size="small" onClick={() => setEditing(a)}>
                  {t('common.edit')}
                </Button>
                <Button size="small" danger onClick={() => edit.remove.mutate(a.id)}>
                  {t('common.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing && <AreaDialog area={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

interface AreaForm {
  name: string;
  capacity: number;
  maxStayMinutes: number;
  antiPassback: 0 | 1 | 2;
  antiPassbackResetMinutes: number;
  terminalIds: number[];
}

/** The area's editor: name, capacity, maximum stay, anti-passback and its reset, terminals. */
function AreaDialog({ area, onClose }: { area: AreaRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AreaForm>();
  const edit = useAreaEdit();
  const terminals = useQuery({
    queryKey: ['terminals', 'all'],
    queryFn: () => api.call(contract.terminals.list, { query: {} }),
  });
  const busy = edit.create.isPending || edit.update.isPending;
  const error = edit.create.error ?? edit.update.error;
  const save = (v: AreaForm) => {
    const body = { ...v, name: v.name.trim() };
    if (area) edit.update.mutate({ id: area.id, body }, { onSuccess: onClose });
    else edit.create.mutate(body, { onSuccess: onClose });
  };
  return (
    <Modal
      open
      title={area ? area.name : t('occupancy.newArea')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: busy }}
      destroyOnHidden
    >
      <Form<AreaForm>
        form={form}
        layout="vertical"
        onFinish={save}
        initialValues={
          area ?? {
            name: '',
            capacity: 0,
            maxStayMinutes: 0,
            antiPassback: 0,
            antiPassbackResetMinutes: 0,
            terminalIds: [],
          }
        }
      >
        <Form.Item
          name="name"
          label={t('occupancy.name')}
          rules={[{ required: true, message: t('validation.required') }]}
        >
          <Input maxLength={100} data-testid="area-name" />
        </Form.Item>
        <Form.Item name="capacity" label={t('occupancy.capacityHint')}>
          <InputNumber min={0} max={100000} data-testid="area-capacity" />
        </Form.Item>
        <Form.Item name="maxStayMinutes" label={t('occupancy.maxStayHint')}>
          <InputNumber min={0} max={10080} />
        </Form.Item>
        <Form.Item name="antiPassback" label={t('occupancy.antiPassback')}>
          <Select options={APB.map((v) => ({ value: v, label: t(`occupancy.apb.${v}`) }))} />
        </Form.Item>
        <Form.Item name="antiPassbackResetMinutes" label={t('occupancy.resetHint')}>
          <InputNumber min={0} max={10080} />
        </Form.Item>
        <Form.Item name="terminalIds" label={t('occupancy.terminals')}>
          <Select
            mode="multiple"
            loading={terminals.isPending}
            data-testid="area-terminals"
            options={(terminals.data?.items ?? []).map((x) => ({ value: x.id, label: x.name }))}
          />
        </Form.Item>
        {error && <Typography.Text type="danger">{errorText(t, error)}</Typography.Text>}
      </Form>
    </Modal>
  );
}

/** The card-sharing report: cards at two places too close in time, or far more entrances than exits. */
function CardSharingCard() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [range, setRange] = useState<[string, string]>(() => {
    const today = dayjs().format('YYYY-MM-DD');
    return [dayjs().subtract(7, 'day').format('YYYY-MM-DD'), today];
  });
  const report = useQuery({
    queryKey: ['occupancy', 'sharing', range],
    queryFn: () =>
      api.call(contract.occupancy.cardSharing, {
        query: { from: range[0], to: range[1], seconds: 60, surplus: 3 },
      }),
  });
  return (
    <Card title={t('occupancy.sharing.title')} className="no-print" data-testid="card-sharing">
      {/* In the body, not the card's head: on a phone the head has no room for the title and both dates. */}
      <DatePicker.RangePicker
        className="sharing-range"
        value={[dayjs(range[0]), dayjs(range[1])]}
        allowClear={false}
        onChange={(v) => v?.[0] && v[1] && setRange([v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')])}
      />
      <Typography.Paragraph type="secondary">{t('occupancy.sharing.what')}</Typography.Paragraph>
      <QueryState loading={report.isPending} error={report.error}>
        <ListTable<SharingRow>
          rowKey={(r) => `${r.kind}-${r.clientId}`}
          size="small"
          pagination={false}
          dataSource={report.data?.items ?? []}
          columns={[
            { title: t('occupancy.name'), render: (_: unknown, r) => `${r.name} · #${r.number}` },
            {
              title: t('occupancy.sharing.kind'),
              dataIndex: 'kind',
              render: (k: string) => t(`occupancy.sharing.${k}`),
            },
            { title: t('occupancy.sharing.count'), dataIndex: 'count' },
            { title: t('occupancy.sharing.passbacks'), dataIndex: 'passbacks' },
            { title: t('occupancy.sharing.last'), dataIndex: 'last', render: (v: string) => fmt.dateTime(v) },
          ]}
        />
      </QueryState>
    </Card>
  );
}
