import type { ReactNode } from 'react';
import type { Access, ClientFull } from '@venue/domain';

/** What every tab gets. */
export interface ClientTabContext {
  clientId: number;
  full: ClientFull;
  canEdit: boolean;
}

export interface ClientTab {
  key: string;
  /** i18n key of the tab's title. */
  labelKey: string;
  order: number;
  render: (ctx: ClientTabContext) => ReactNode;
  /** Shown only to a caller with this access (the privacy tab: roleSecurityOfficer). */
  access?: Access;
}
