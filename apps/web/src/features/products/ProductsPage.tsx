import { useMemo, useState } from 'react';
import { Alert, Button, Space, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Product } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useCan } from '../../platform/auth/useCan';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { DataGrid } from '../../shared/DataGrid';
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
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.products')}</Typography.Title>
        {canEdit && (
          <Space wrap>
            <Typography.Text type="secondary" data-testid="product-capacity">
              {t('products.capacity', { count, limit })}
            </Typography.Text>
            <Tooltip title={full ? t('products.limit', { count: limit }) : undefined}>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                disabled={full}
                onClick={() => edit(null)}
                data-testid="product-new"
              >
                {t('products.new')}
              </Button>
            </Tooltip>
          </Space>
        )}
      </div>
      {canEdit && full && (
        <Alert
          type="warning"
          showIcon
          className="no-print"
          style={{ marginBlockEnd: 12 }}
          title={t('products.limit', { count: limit })}
          data-testid="product-limit"
        />
      )}
      <DataGrid<Product>
        gridId="products"
        columns={columns}
        rows={q.data?.items ?? []}
        rowKey="id"
        state={grid}
        onStateChange={setGrid}
        sortMode="page"
        loading={q.isFetching}
        error={q.error}
        onRetry={() => void q.refetch()}
        onExport={() => downloadFile('/Product/Export', { query: { lang } }, 'products.xlsx')}
        rowClassName={(p) => (p.active ? '' : 'row-deleted')}
        emptyText={t('products.empty')}
      />
      <ProductDrawer open={open} product={editing} limit={limit} onClose={() => setOpen(false)} />
    </>
  );
}
