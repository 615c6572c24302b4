import type { ReactNode } from 'react';
import { Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { Product } from '@venue/domain';
import type { GridColumn } from '../../shared/DataGrid';
import { editDeleteColumn } from '../../shared/editDeleteColumn';

/** What the product columns need from the screen. */
export interface ProductColumnsContext {
  t: TFunction;
  /** Price in agorot → the club's currency text. */
  money: (agorot: number) => ReactNode;
  canEdit: boolean;
  onEdit: (p: Product) => void;
  /** Deletes and reports; the confirmation spins until the promise settles. */
  onDelete: (p: Product) => Promise<unknown>;
}

/** Columns of the product list (seed 001 §3 "Product"); max quantity 0 reads "no limit". */
export function productColumns({ t, money, canEdit, onEdit, onDelete }: ProductColumnsContext): GridColumn<Product>[] {
  return [
    {
      key: 'name',
      title: t('products.name'),
      dataIndex: 'name',
      alwaysVisible: true,
      sortable: (a, b) => a.name.localeCompare(b.name),
      render: (v: string, p) =>
        canEdit ? (
          <Typography.Link dir="auto" onClick={() => onEdit(p)}>
            {v}
          </Typography.Link>
        ) : (
          <span dir="auto">{v}</span>
        ),
    },
    { key: 'displayName', title: t('products.displayName'), dataIndex: 'displayName' },
    { key: 'description', title: t('products.description'), dataIndex: 'description', ellipsis: true },
    {
      key: 'type',
      title: t('products.type'),
      dataIndex: 'type',
      sortable: (a, b) => a.type - b.type,
      render: (v: number) => t(`productType.${v}`),
    },
    {
      key: 'price',
      title: t('products.price'),
      dataIndex: 'price',
      align: 'end',
      sortable: (a, b) => a.price - b.price,
      render: (v: number) => money(v),
    },
    {
      key: 'maxQuantity',
      title: t('products.maxQuantity'),
      dataIndex: 'maxQuantity',
      align: 'end',
      render: (v: number) => (v === 0 ? t('products.noLimit') : v),
    },
    {
      key: 'active',
      title: t('products.active'),
      dataIndex: 'active',
      render: (v: boolean) =>
        v ? <Tag color="green">{t('products.isActive')}</Tag> : <Tag>{t('products.inactive')}</Tag>,
    },
    editDeleteColumn({ t, canEdit, confirmKey: 'products.deleteConfirm', onEdit, onDelete }),
  ];
}
