import { useEffect, useMemo, useState } from 'react';
import {
  App,
  Alert,
  Button,
  Col,
  Drawer,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Row,
  Select,
  Space,
  Switch,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PRODUCT_TYPES, ProductInput, type Product } from '@venue/domain';
import { ApiError } from '../../app/api/apiClient';
import { useSessionData } from '../../app/auth/AuthProvider';
import { useCan } from '../../app/auth/useCan';
import { useDrawerSide, useLanguage } from '../../app/i18n/LocaleProvider';
import { DataGrid, type GridColumn } from '../../shared/DataGrid';
import { downloadFile } from '../../shared/download';
import { applyFieldIssues, errorText, serverFieldIssues, zodFieldIssues } from '../../shared/errors';
import { useGridState } from '../../shared/gridState';
import { MoneyInput } from '../../shared/MoneyInput';
import { useViewport } from '../../shared/useMediaQuery';
import { useClientFormat } from '../clients/clientFormat';
import { productLimit, useDeleteProduct, useProductList, useSaveProduct } from './useProducts';

type ProductForm = ProductInput;

const EMPTY: ProductForm = {
  name: '',
  displayName: '',
  description: '',
  type: 1,
  price: 0,
  maxQuantity: 0,
  active: true,
};

/**
 * /management/app-product-list (seed 001 §3 "Product"): name, display name,
 * description, type, price, max quantity, active; creation capped by the
 * club's capacity ("You cannot create more than N products").
 */
export function ProductsPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { message } = App.useApp();
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

  const columns = useMemo<GridColumn<Product>[]>(
    () => [
      {
        key: 'name',
        title: t('products.name'),
        dataIndex: 'name',
        alwaysVisible: true,
        sortable: (a, b) => a.name.localeCompare(b.name),
        render: (v: string, p) =>
          canEdit ? (
            <Typography.Link dir="auto" onClick={() => edit(p)}>
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
        render: (v: number) => fmt.money(v),
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
      {
        key: 'actions',
        title: '',
        alwaysVisible: true,
        className: 'no-print',
        render: (_, p) =>
          canEdit ? (
            <Space size={0}>
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                aria-label={t('common.edit')}
                onClick={() => edit(p)}
              />
              <Popconfirm
                title={t('products.deleteConfirm', { name: p.name })}
                okText={t('common.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() =>
                  del
                    .mutateAsync(p.id)
                    .then(() => message.success(t('products.deleted')))
                    .catch((e: unknown) => message.error(errorText(t, e)))
                }
              >
                <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} />
              </Popconfirm>
            </Space>
          ) : null,
      },
    ],
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

function ProductDrawer({
  open,
  product,
  limit,
  onClose,
}: {
  open: boolean;
  product: Product | null;
  limit: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { club } = useSessionData();
  const side = useDrawerSide('end');
  const phone = useViewport() === 'phone';
  const [form] = Form.useForm<ProductForm>();
  const save = useSaveProduct();

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(
      product
        ? {
            name: product.name,
            displayName: product.displayName,
            description: product.description,
            type: product.type as ProductForm['type'],
            price: product.price,
            maxQuantity: product.maxQuantity,
            active: product.active,
          }
        : EMPTY,
    );
  }, [open, product, form]);

  const onFinish = async (v: ProductForm) => {
    const parsed = ProductInput.safeParse({ ...EMPTY, ...v, type: Number(v.type) });
    if (!parsed.success) {
      applyFieldIssues(form, zodFieldIssues(t, parsed.error));
      return;
    }
    try {
      await save.mutateAsync({ id: product?.id ?? null, body: parsed.data });
      message.success(t('common.saved'));
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'PRODUCT_LIMIT') message.error(t('products.limit', { count: limit }));
      else if (!(e instanceof ApiError && applyFieldIssues(form, serverFieldIssues(t, e))))
        message.error(errorText(t, e));
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement={side}
      size={phone ? '100%' : 480}
      title={product ? t('products.edit', { name: product.name }) : t('products.new')}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="product-save">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} initialValues={EMPTY}>
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('products.name')} required>
              <Input maxLength={60} data-testid="product-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="displayName" label={t('products.displayName')} tooltip={t('products.displayNameHint')}>
              <Input maxLength={60} data-testid="product-displayName" />
            </Form.Item>
          </Col>
          <Col xs={24}>
            <Form.Item name="description" label={t('products.description')}>
              <Input.TextArea rows={3} maxLength={500} showCount />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="type" label={t('products.type')}>
              <Select options={PRODUCT_TYPES.map((v) => ({ value: v, label: t(`productType.${v}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="price" label={t('products.price')}>
              <MoneyInput symbol={club.currencySymbol} data-testid="product-price" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="maxQuantity" label={t('products.maxQuantity')} tooltip={t('products.zeroNoLimit')}>
              <InputNumber min={0} max={10000} style={{ inlineSize: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="active" label={t('products.active')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Drawer>
  );
}
