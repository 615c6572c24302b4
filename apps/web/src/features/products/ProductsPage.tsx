import { useMemo, useState } from 'react';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Product } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useCan } from '../../platform/auth/useCan';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { ResourceListPage } from '../../shared/ResourceListPage';
import { downloadFile } from '../../shared/download';
import { errorText } from '../../shared/errors';
import { useGridState } from '../../shared/gridState';
import { useClientFormat } from '../clients/clientFormat';
import { productColumns } from './productColumns';
import { ProductDrawer } from './ProductDrawer';
import { productLimit, useDeleteProduct, useProductList } from './useProducts';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * /management/app-product-list (seed 001 §3 "Product"): name, display name,
 * description, type, price, max quantity, active; creation capped by the
 * club's capacity ("You cannot create more than N products").
 */
export function ProductsPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const message = useToast();
  const { capacities } = useSessionData();
  const allowed = useCan();
  const canEdit = allowed({ edit: 'products' });
  const fmt = useClientFormat();
  const q = useProductList();
  const del = useDeleteProduct();
  const [grid, setGrid] = useGridState('products');
  const [editing, setEditing] = useState<Product | null>(null);
  const [open, setOpen] = useState(false);
  const limit = productLimit(capacities);
  const count = q.data?.total ?? 0;
  const full = count >= limit;

  const columns = useMemo(
    () =>
      productColumns({
        t,
        money: fmt.money,
        canEdit,
        onEdit: (p) => edit(p),
        onDelete: (p) =>
          del
            .mutateAsync(p.id)
            .then(() => message.success(t('products.deleted')))
            .catch((e: unknown) => message.error(errorText(t, e))),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, fmt, canEdit],
  );

  function edit(p: Product | null) {
    setEditing(p);
    setOpen(true);
  }

  return (
    <ResourceListPage<Product>
      title={t('nav.products')}
      actions={
        canEdit ? (
          <Typography.Text type="secondary" data-testid="product-capacity">
            {t('products.capacity', { count, limit })}
          </Typography.Text>
        ) : undefined
      }
      create={
        canEdit && {
          label: t('products.new'),
          testId: 'product-new',
          onClick: () => edit(null),
          disabled: full,
          tooltip: full ? t('products.limit', { count: limit }) : undefined,
        }
      }
      above={
        canEdit &&
        full && (
          <Alert
            type="warning"
            showIcon
            className="no-print"
            style={{ marginBlockEnd: 12 }}
            title={t('products.limit', { count: limit })}
            data-testid="product-limit"
          />
        )
      }
      rows={q.data?.items ?? []}
      query={q}
      emptyText={t('products.empty')}
      grid={{
        gridId: 'products',
        columns,
        state: grid,
        onStateChange: setGrid,
        sortMode: 'page',
        onExport: () => downloadFile('/Product/Export', { query: { lang } }, 'products.xlsx'),
        rowClassName: (p) => (p.active ? '' : 'row-deleted'),
      }}
      dialogs={<ProductDrawer open={open} product={editing} limit={limit} onClose={() => setOpen(false)} />}
    />
  );
}
