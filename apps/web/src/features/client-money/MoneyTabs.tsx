import type { ReactNode } from 'react';
import { useCan } from '../../platform/auth/useCan';
import type { ClientTab } from '../clients/clientTab';
import type { MoneyTabProps } from './moneyTab';
import { SubscriptionTab } from './SubscriptionTab';
import { BalanceTab } from './BalanceTab';
import { DebtsTab } from './DebtsTab';
import { PaymentMethodTab } from './PaymentMethodTab';
import { AutoActionsTab } from './AutoActionsTab';
import { PurchasesTab } from './PurchasesTab';

/** Money changes need the "manage client debts, subscription and beats" permission (seed 001 §6). */
function WithMoneyPermission({ clientId, render }: { clientId: number; render: (p: MoneyTabProps) => ReactNode }) {
  const allowed = useCan();
  return <>{render({ clientId, canEdit: allowed({ edit: 'clientMoney' }) })}</>;
}

const tab = (key: string, order: number, C: (p: MoneyTabProps) => ReactNode): ClientTab => ({
  key,
  labelKey: `money.tab${key[0].toUpperCase()}${key.slice(1)}`,
  order,
  render: (ctx) => <WithMoneyPermission clientId={ctx.clientId} render={(p) => <C {...p} />} />,
});

/** The money tabs of the client details page (seed 001 §2 "Client details"), orders 20–70. */
export const moneyClientTabs: ClientTab[] = [
  tab('subscription', 20, SubscriptionTab),
  tab('balance', 30, BalanceTab),
  tab('debts', 40, DebtsTab),
  tab('paymentMethod', 50, PaymentMethodTab),
  tab('autoActions', 60, AutoActionsTab),
  tab('purchases', 70, PurchasesTab),
];
