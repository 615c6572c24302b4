import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Form, Input, Modal, Tooltip } from 'antd';
import {
  CreditCardOutlined,
  LoginOutlined,
  ReloadOutlined,
  SafetyOutlined,
  SearchOutlined,
  ShoppingCartOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  OverrideReason,
  PurchaseItemType,
  type CheckInResult,
  type FrontDeskGlance,
  type Purchase,
} from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { errorText, validationText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { PurchaseDialog, type ItemRow } from '../client-money/PurchaseDialog';
import { newKey } from '../client-money/useMoney';
import { moneyText } from '../client-money/format';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { isolate, reasonKey, type DeskResult } from './deskParts';
import { useCheckIn, useSellEntrance } from './useFrontDesk';

/** The dialog the desk has open: a sale of one kind, or the override's reason. */
export type DeskDialog = { kind: 'sell' | 'load' | 'renew' | 'debt' } | { kind: 'override' } | null;

/** The one-key actions and their keys (docs/front-desk.md "Keys"). */
const KEYS = { checkIn: 'F2', sell: 'F4', load: 'F7', renew: 'F8', debt: 'F9' } as const;

interface Props {
  g: FrontDeskGlance;
  gateId: number | null;
  dialog: DeskDialog;
  setDialog: (d: DeskDialog) => void;
  onResult: (r: DeskResult) => void;
  onIdle: () => void;
  onNewSearch: () => void;
}

/**
 * The desk's actions for the member: check in (or, when the gate refuses and the user may,
 * admit anyway with a reason), sell an entrance that admits (the purchase dialog, its price the
 * schedule's), load balance, renew, pay the open debts — each on a button and a function key.
 * Selling anything while the gate refuses the member now says so first; an entrance the gate would
 * refuse even paid is not offered (the server refuses it too: ENTRANCE_REFUSED).
 */
export function DeskActions({ g, gateId, dialog, setDialog, onResult, onIdle, onNewSearch }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const allowed = useCan();
  const { club } = useSessionData();
  const checkIn = useCheckIn();
  const v = g.verdict;
  const name = `${g.client.firstName} ${g.client.lastName}`.trim();
  const may = {
    checkIn: allowed({ flag: 'roleCheckInClients' }),
    money: allowed({ flag: 'roleManageClientMoney' }),
    override: allowed({ flag: 'roleOverrideEntrance' }),
  };
  const debts = g.debts.items.filter((d) => !d.inCollection);
  const can = {
    checkIn: may.checkIn && gateId != null && v != null && v.decision.approved,
    override: may.checkIn && may.override && gateId != null && v != null && v.overridable,
    sell: may.checkIn && may.money && gateId != null && v?.sale.outcome === 'admits',
    load: may.money,
    renew: may.money,
    debt: may.money && debts.length > 0,
  };

  const doCheckIn = (override?: string) =>
    checkIn.mutateAsync(
      {
        clientId: g.client.id,
        terminalId: gateId!,
        idempotencyKey: newKey('desk'),
        ...(override ? { override: { reason: override } } : {}),
      },
      {
        onSuccess: (r) => onResult({ kind: 'checkIn', name, gate: v?.terminalName ?? '', r }),
        onError: (e) => toast.error(errorText(t, e)),
      },
    );
  const run = {
    checkIn: () => void doCheckIn().catch(() => undefined),
    override: () => setDialog({ kind: 'override' }),
    sell: () => setDialog({ kind: 'sell' }),
    load: () => setDialog({ kind: 'load' }),
    renew: () => setDialog({ kind: 'renew' }),
    debt: () => setDialog({ kind: 'debt' }),
  };
  const refusedNow = v != null && !v.decision.approved;
  useFocusBoxAfterDialog(dialog, onIdle);
  const primary = can.checkIn ? 'checkIn' : can.sell ? 'sell' : null;
  useHotkeys(dialog == null, {
    [KEYS.checkIn]: can.checkIn ? run.checkIn : can.override ? run.override : undefined,
    [KEYS.sell]: can.sell ? run.sell : undefined,
    [KEYS.load]: can.load ? run.load : undefined,
    [KEYS.renew]: can.renew ? run.renew : undefined,
    [KEYS.debt]: can.debt ? run.debt : undefined,
  });

  const button = (key: keyof typeof KEYS, label: string, icon: ReactNode, extra: object = {}) => (
    <Button
      size="large"
      icon={icon}
      type={primary === key ? 'primary' : 'default'}
      disabled={!can[key]}
      onClick={run[key]}
      aria-keyshortcuts={KEYS[key]}
      data-testid={`desk-${key}`}
      {...extra}
    >
      {label} <kbd className="desk-kbd">{KEYS[key]}</kbd>
    </Button>
  );

  return (
    <div className="desk-actions" role="group" aria-label={t('frontDesk.actions')}>
      {!can.checkIn && refusedNow && can.override ? (
        <Button
          size="large"
          danger
          icon={<SafetyOutlined />}
          onClick={run.override}
          aria-keyshortcuts={KEYS.checkIn}
          data-testid="desk-override"
        >
          {t('frontDesk.override')} <kbd className="desk-kbd">{KEYS.checkIn}</kbd>
        </Button>
      ) : (
        button('checkIn', t('frontDesk.checkIn'), <LoginOutlined />, { loading: checkIn.isPending })
      )}
      {may.money &&
        button(
          'sell',
          v && v.sale.outcome === 'admits'
            ? t('frontDesk.sellEntrancePrice', { price: moneyText(v.price, club.currencySymbol) })
            : t('frontDesk.sellEntrance'),
          <ShoppingCartOutlined />,
        )}
      {may.money && button('load', t('frontDesk.loadBalance'), <WalletOutlined />)}
      {may.money && button('renew', t('frontDesk.renew'), <ReloadOutlined />)}
      {may.money && button('debt', t('frontDesk.payDebt'), <CreditCardOutlined />)}
      <Tooltip title="Esc">
        <Button size="large" icon={<SearchOutlined />} onClick={onNewSearch} data-testid="desk-new-search">
          {t('frontDesk.newSearch')}
        </Button>
      </Tooltip>
      <DeskDialogs
        g={g}
        gateId={gateId}
        dialog={dialog}
        close={() => {
          setDialog(null);
          onIdle();
        }}
        onOverride={(reason) => doCheckIn(reason)}
        onSold={(p, admitted) => onResult({ kind: 'sale', p, admitted })}
        onIdle={onIdle}
        overriding={checkIn.isPending}
      />
    </div>
  );
}

/**
 * Gives the search box the focus once a dialog is gone, after the commit that removed it: focusing
 * the box while the dialog is still mounted is undone by the dialog's focus lock, and the focus
 * then falls to the page when the dialog unmounts (the override dialog closes without animation).
 */
function useFocusBoxAfterDialog(dialog: DeskDialog, focusBox: () => void) {
  const had = useRef(false);
  useEffect(() => {
    if (dialog) had.current = true;
    else if (had.current) {
      had.current = false;
      focusBox();
    }
  });
}

/** F-keys while no dialog is open (a key with no action is left to the browser). */
function useHotkeys(active: boolean, map: Record<string, (() => void) | undefined>) {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      const fn = map[e.key];
      if (!fn || e.altKey || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      fn();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}

/** The sale dialogs (the one purchase dialog, started per action) and the override's reason. */
function DeskDialogs({
  g,
  gateId,
  dialog,
  close,
  onOverride,
  onSold,
  onIdle,
  overriding,
}: {
  g: FrontDeskGlance;
  gateId: number | null;
  dialog: DeskDialog;
  close: () => void;
  onOverride: (reason: string) => Promise<CheckInResult>;
  onSold: (p: Purchase, admitted: CheckInResult | null) => void;
  onIdle: () => void;
  overriding: boolean;
}) {
  const { t } = useTranslation();
  const sell = useSellEntrance(gateId);
  const [sale, setSale] = useState<{ p: Purchase; admitted: CheckInResult | null } | null>(null);
  const v = g.verdict;
  const name = `${g.client.firstName} ${g.client.lastName}`.trim();
  const kind = dialog?.kind;
  if (kind === 'override') {
    return <OverrideDialog g={g} onCancel={close} onSubmit={onOverride} busy={overriding} />;
  }
  const items: Record<'sell' | 'load' | 'renew' | 'debt', Partial<ItemRow>[]> = {
    sell: [{ itemType: PurchaseItemType.Entrance, unitPrice: v?.price ?? null }],
    load: [{ itemType: PurchaseItemType.ChargingMoney }],
    renew: [{ itemType: PurchaseItemType.NewSubscription, period: 'month' }],
    debt: g.debts.items
      .filter((d) => !d.inCollection)
      .map((d) => ({ itemType: PurchaseItemType.PayDebt, itemId: d.id, name: d.description, unitPrice: d.open })),
  };
  const titles = {
    sell: t('frontDesk.sellEntrance'),
    load: t('frontDesk.loadBalance'),
    renew: t('frontDesk.renew'),
    debt: t('frontDesk.payDebt'),
  };
  const refusedNow = v != null && !v.decision.approved && kind !== 'sell';
  const notice =
    kind === 'sell' && v ? (
      <Alert
        type="info"
        showIcon
        className="desk-gap"
        title={t('frontDesk.saleAdmits', { gate: isolate(v.terminalName) })}
      />
    ) : refusedNow ? (
      <Alert
        type="warning"
        showIcon
        className="desk-gap"
        data-testid="desk-sale-warning"
        title={t('frontDesk.refusedNowWarning', {
          name: isolate(name),
          reason: t(`reason.${reasonKey(v.decision.reason)}`),
        })}
      />
    ) : null;
  const admittedNote = sale?.admitted?.admitted
    ? t(sale.admitted.gateOpened ? 'frontDesk.admittedOpened' : 'frontDesk.admittedRecorded', {
        name: isolate(name),
        gate: isolate(v?.terminalName ?? ''),
      })
    : undefined;
  return (
    <PurchaseDialog
      clientId={g.client.id}
      open={kind != null}
      onClose={() => {
        if (sale) onSold(sale.p, sale.admitted);
        setSale(null);
        close();
      }}
      initialItems={kind ? items[kind] : undefined}
      title={kind ? titles[kind] : undefined}
      focusPay={kind === 'sell'}
      notice={notice}
      customer={{ name, number: g.client.number }}
      receiptNote={admittedNote}
      afterClose={onIdle}
      onDone={(p) => setSale((s) => s ?? { p, admitted: null })}
      submitWith={
        kind === 'sell'
          ? async (req) => {
              const r = await sell.mutateAsync(req);
              setSale({ p: r.purchase, admitted: r.checkIn });
              return r.purchase;
            }
          : undefined
      }
    />
  );
}

/** Admit despite the gate's refusal: the refusal, and the reason that is recorded with the entrance. */
function OverrideDialog({
  g,
  onCancel,
  onSubmit,
  busy,
}: {
  g: FrontDeskGlance;
  onCancel: () => void;
  onSubmit: (reason: string) => Promise<CheckInResult>;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const v = g.verdict!;
  const submit = async () => {
    const parsed = OverrideReason.safeParse(reason);
    if (!parsed.success) {
      setError(validationText(t, parsed.error.issues[0]?.message ?? 'invalid'));
      return;
    }
    try {
      await onSubmit(parsed.data);
      onCancel();
    } catch {
      // The toast says why; the dialog stays for another try.
    }
  };
  return (
    <Modal
      open
      title={t('frontDesk.overrideTitle')}
      onCancel={onCancel}
      onOk={() => void submit()}
      okText={t('frontDesk.overrideConfirm')}
      okButtonProps={{ danger: true, loading: busy, ...({ 'data-testid': 'override-submit' } as object) }}
      destroyOnHidden
    >
      <Alert
        type="error"
        showIcon
        className="desk-gap"
        title={t('frontDesk.verdictRefuses', {
          gate: isolate(v.terminalName),
          reason: t(`reason.${reasonKey(v.decision.reason)}`),
        })}
        description={t('frontDesk.overrideExplain')}
      />
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item
          label={t('frontDesk.overrideReason')}
          htmlFor="override-reason"
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          required
        >
          <Input.TextArea
            id="override-reason"
            autoFocus
            rows={3}
            maxLength={200}
            showCount
            dir="auto"
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setError(null);
            }}
            data-testid="override-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
