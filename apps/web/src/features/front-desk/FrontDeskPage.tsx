import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Empty, Input, Select, Skeleton, Space, Typography, type InputRef } from 'antd';
import { IdcardOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatPhone, type FrontDeskGate, type FrontDeskMatch } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { errorText } from '../../shared/errors';
import { ClientGlance } from './ClientGlance';
import { DeskActions, type DeskDialog } from './DeskActions';
import { isolate, reasonKey, type DeskResult } from './deskParts';
import { useDeskGate, useFind, useGates, useGlance } from './useFrontDesk';
import './front-desk.css';

/**
 * The front desk (issue 35; docs/front-desk.md): for cashiers and attendants, tablet- and
 * keyboard-first. One box takes a card swipe (a keyboard-wedge reader types the number and
 * Enter), a phone, a name, an ID or a member number; one match opens at once. The member at a
 * glance with the gate's verdict at the desk's gate, and one-key actions (F2 check in, F4 sell an
 * entrance, F7 load balance, F8 renew, F9 pay a debt, Esc a new search). After every action the
 * box is ready for the next swipe.
 */
export function FrontDeskPage() {
  const { t } = useTranslation();
  const gates = useGates();
  const [gateId, chooseGate] = useDeskGate(gates.data);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [clientId, setClientId] = useState<number | null>(null);
  const [result, setResult] = useState<DeskResult | null>(null);
  const box = useRef<InputRef>(null);
  const found = useFind(query);
  const glance = useGlance(clientId, gateId);

  // One match opens at once (a card swipe is one match).
  useEffect(() => {
    const items = found.data?.items;
    if (items?.length === 1) setClientId(items[0].id);
  }, [found.data]);

  // The box ready for the next swipe: focused with the last search selected, so the next number
  // replaces it — but not over a new number already being typed (a dialog's close animation ends
  // after the cashier has started the next swipe).
  const searched = useRef('');
  const ready = () => {
    const input = box.current?.input;
    if (input && document.activeElement === input && input.value.trim() !== searched.current) return;
    box.current?.focus({ cursor: 'all' });
  };
  const search = (value: string) => {
    const q = value.trim();
    searched.current = q;
    setResult(null);
    setClientId(null);
    setQuery(q);
    if (q === query) void found.refetch();
  };
  const clear = () => {
    setText('');
    setQuery('');
    searched.current = '';
    setClientId(null);
    setResult(null);
    box.current?.focus();
  };

  return (
    <div className="front-desk" data-testid="front-desk">
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.frontDesk')}</Typography.Title>
        <GatePicker gates={gates.data} loading={gates.isPending} value={gateId} onChange={chooseGate} />
      </div>
      <form
        role="search"
        className="desk-search"
        onSubmit={(e) => {
          e.preventDefault();
          search(text);
        }}
      >
        <Input
          ref={box}
          size="large"
          autoFocus
          allowClear
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') clear();
          }}
          prefix={<IdcardOutlined aria-hidden />}
          placeholder={t('frontDesk.searchPlaceholder')}
          aria-label={t('frontDesk.searchLabel')}
          autoComplete="off"
          dir="auto"
          data-testid="desk-search"
        />
        <Button
          size="large"
          type="primary"
          htmlType="submit"
          icon={<SearchOutlined />}
          loading={found.isFetching}
          data-testid="desk-search-go"
        >
          {t('frontDesk.find')}
        </Button>
      </form>
      {gates.data && gates.data.length === 0 && (
        <Alert type="warning" showIcon className="desk-gap" data-testid="desk-no-gate" title={t('frontDesk.noGate')} />
      )}
      {result && <ResultBanner result={result} />}
      <DeskBody
        query={query}
        found={found}
        clientId={clientId}
        onChoose={setClientId}
        glance={glance}
        gateId={gateId}
        onResult={(r) => {
          setResult(r);
          ready();
        }}
        onIdle={ready}
        onNewSearch={clear}
      />
    </div>
  );
}

function ResultBanner({ result }: { result: DeskResult }) {
  const { t } = useTranslation();
  if (result.kind === 'sale') {
    return (
      <Alert
        type="success"
        showIcon
        className="desk-gap"
        data-testid="desk-result"
        title={t('frontDesk.saleDone', { invoice: result.p.invoiceNumber ?? '—' })}
        description={result.admitted?.admitted ? t('frontDesk.saleAdmitted') : undefined}
      />
    );
  }
  const { r } = result;
  const reason = t(`reason.${reasonKey(r.decision.reason)}`);
  return (
    <Alert
      type={r.admitted ? 'success' : 'error'}
      showIcon
      className="desk-gap desk-result"
      data-testid="desk-result"
      data-admitted={r.admitted ? 'true' : 'false'}
      title={
        r.admitted
          ? t(r.gateOpened ? 'frontDesk.admittedOpened' : 'frontDesk.admittedRecorded', {
              name: isolate(result.name),
              gate: isolate(result.gate),
            })
          : t('frontDesk.refused', { name: isolate(result.name), reason })
      }
      description={r.overridden ? t('frontDesk.overrideRecorded') : r.admitted ? reason : undefined}
    />
  );
}

/** The gate the desk admits through: kept per device; a dot says whether it is linked. */
function GatePicker({
  gates,
  loading,
  value,
  onChange,
}: {
  gates: FrontDeskGate[] | undefined;
  loading: boolean;
  value: number | null;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Space wrap className="desk-gate">
      <label htmlFor="desk-gate-select">{t('frontDesk.gate')}</label>
      <Select
        id="desk-gate-select"
        loading={loading}
        value={value ?? undefined}
        onChange={onChange}
        style={{ minInlineSize: 200 }}
        placeholder={t('frontDesk.chooseGate')}
        data-testid="desk-gate"
        options={(gates ?? []).map((g) => ({
          value: g.id,
          label: (
            <Space size={6}>
              <Badge status={g.connected ? 'success' : 'default'} />
              <span dir="auto">{g.name}</span>
              {!g.connected && <Typography.Text type="secondary">({t('frontDesk.offline')})</Typography.Text>}
              {!g.approved && <Typography.Text type="warning">({t('frontDesk.notApproved')})</Typography.Text>}
            </Space>
          ),
        }))}
      />
    </Space>
  );
}

/** Below the box: the hint before a search, the matches, not found, or the member with the actions. */
function DeskBody(p: {
  query: string;
  found: ReturnType<typeof useFind>;
  clientId: number | null;
  onChoose: (id: number) => void;
  glance: ReturnType<typeof useGlance>;
  gateId: number | null;
  onResult: (r: DeskResult) => void;
  onIdle: () => void;
  onNewSearch: () => void;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<DeskDialog>(null);
  if (!p.query) return <DeskHint />;
  if (p.found.isPending) return <Skeleton active className="desk-gap" data-testid="desk-loading" />;
  if (p.found.error) {
    return <QueryState loading={false} error={p.found.error} onRetry={() => void p.found.refetch()} children={null} />;
  }
  const items = p.found.data?.items ?? [];
  if (items.length === 0) {
    return (
      <Empty
        className="desk-gap desk-empty"
        data-testid="desk-not-found"
        description={
          <Space orientation="vertical">
            <span>{t('frontDesk.notFound', { q: isolate(p.query) })}</span>
            <Typography.Text type="secondary">{t('frontDesk.notFoundHint')}</Typography.Text>
            <Link to="/management/clients">{t('frontDesk.toClients')}</Link>
          </Space>
        }
      />
    );
  }
  return (
    <div className="desk-main">
      {items.length > 1 && (
        <MatchList items={items} more={p.found.data?.more ?? false} chosen={p.clientId} onChoose={p.onChoose} />
      )}
      {p.clientId != null && (
        <section className="desk-member" aria-label={t('frontDesk.member')}>
          {p.glance.isPending ? (
            <Skeleton active avatar data-testid="desk-loading" />
          ) : p.glance.error ? (
            <Alert type="error" showIcon title={errorText(t, p.glance.error)} />
          ) : (
            <>
              <ClientGlance g={p.glance.data!} />
              <DeskActions
                g={p.glance.data!}
                gateId={p.gateId}
                dialog={dialog}
                setDialog={setDialog}
                onResult={p.onResult}
                onIdle={p.onIdle}
                onNewSearch={p.onNewSearch}
              />
            </>
          )}
        </section>
      )}
    </div>
  );
}

/** Several clients match: one button each (name, number, phone, group), by name. */
function MatchList({
  items,
  more,
  chosen,
  onChoose,
}: {
  items: FrontDeskMatch[];
  more: boolean;
  chosen: number | null;
  onChoose: (id: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <nav className="desk-matches" aria-label={t('frontDesk.matches', { count: items.length })}>
      <Typography.Text type="secondary">{t('frontDesk.matches', { count: items.length })}</Typography.Text>
      <ul>
        {items.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className={c.id === chosen ? 'desk-match desk-match-chosen' : 'desk-match'}
              aria-current={c.id === chosen ? 'true' : undefined}
              onClick={() => onChoose(c.id)}
              data-testid={`desk-match-${c.id}`}
            >
              <span className="desk-match-name" dir="auto">
                {c.firstName} {c.lastName}
              </span>
              <span className="desk-match-meta">
                #{c.number}
                {c.phone && <span className="ltr-value"> · {formatPhone(c.phone)}</span>}
                {c.groupName && (
                  <>
                    {' · '}
                    <span dir="auto">{c.groupName}</span>
                  </>
                )}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {more && <Typography.Text type="secondary">{t('frontDesk.more')}</Typography.Text>}
    </nav>
  );
}

/** Before a search: what the box takes and the keys. */
function DeskHint() {
  const { t } = useTranslation();
  const keys: [string, string][] = [
    ['F2', t('frontDesk.checkIn')],
    ['F4', t('frontDesk.sellEntrance')],
    ['F7', t('frontDesk.loadBalance')],
    ['F8', t('frontDesk.renew')],
    ['F9', t('frontDesk.payDebt')],
    ['Esc', t('frontDesk.newSearch')],
  ];
  return (
    <div className="desk-hint desk-gap" data-testid="desk-hint">
      <Typography.Paragraph>{t('frontDesk.hint')}</Typography.Paragraph>
      <dl className="desk-keys">
        {keys.map(([k, label]) => (
          <div key={k}>
            <dt>
              <kbd>{k}</kbd>
            </dt>
            <dd>{label}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
