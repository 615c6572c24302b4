import { useState } from 'react';
import { PurchaseDialog, type PurchaseDialogProps } from './PurchaseDialog';

/** What the client details page gives each tab (features/clients ClientTabContext). */
export interface MoneyTabProps {
  clientId: number;
  canEdit: boolean;
}

/** The purchase dialog of a money tab: `open(...)` shows it, `dialog` is placed in the tab. */
export function usePurchaseDialog(clientId: number) {
  const [props, setProps] = useState<Omit<PurchaseDialogProps, 'clientId' | 'onClose'> | null>(null);
  return {
    open: (p: Omit<PurchaseDialogProps, 'clientId' | 'onClose' | 'open'> = {}) => setProps({ ...p, open: true }),
    dialog: (
      <PurchaseDialog
        clientId={clientId}
        open={!!props?.open}
        initialItems={props?.initialItems}
        title={props?.title}
        onClose={() => setProps(null)}
      />
    ),
  };
}
