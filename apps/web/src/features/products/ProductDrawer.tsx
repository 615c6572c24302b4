import { useEffect } from 'react';
import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { PRODUCT_TYPES, ProductInput, type Product } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { rootOutcome } from '../../shared/forms/formErrors';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { MoneyInput } from '../../shared/MoneyInput';
import { useSaveProduct } from './useProducts';
import { useToast } from '../../shared/toast/ToastProvider';

type ProductForm = ProductInput;

/** A new product's values (seed 001 §3 "Product"): type 1, price 0 agorot, no quantity limit, active. */
export const EMPTY_PRODUCT: ProductForm = {
  name: '',
  displayName: '',
  description: '',
  type: 1,
  price: 0,
  maxQuantity: 0,
  active: true,
};

/** A product's editable fields, for the form. */
export function productFormValues(product: Product | null): ProductForm {
  if (!product) return EMPTY_PRODUCT;
  return {
    name: product.name,
    displayName: product.displayName,
    description: product.description,
    type: product.type as ProductForm['type'],
    price: product.price,
    maxQuantity: product.maxQuantity,
    active: product.active,
  };
}

/**
 * Create or edit a product (price in agorot); PRODUCT_LIMIT words the club's
 * capacity ("You cannot create more than N products").
 */
export function ProductDrawer({
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
  const message = useToast();
  const save = useSaveProduct();
  const { form, onFinish, rootError, clearRootError, saving } = useSchemaForm({
    schema: ProductInput,
    toInput: (v: ProductForm) => ({ ...EMPTY_PRODUCT, ...v, type: Number(v.type) }),
    submit: (body) => save.mutateAsync({ id: product?.id ?? null, body }),
    onSaved: () => {
      message.success(t('common.saved'));
      onClose();
    },
    byCode: (e) => (e.code === 'PRODUCT_LIMIT' ? rootOutcome(t('products.limit', { count: limit })) : undefined),
  });

  useEffect(() => {
    if (!open) return;
    clearRootError();
    form.setFieldsValue(productFormValues(product));
  }, [open, product, form, clearRootError]);

  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      width={480}
      title={product ? t('products.edit', { name: product.name }) : t('products.new')}
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
      saveTestId="product-save"
    >
      <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} initialValues={EMPTY_PRODUCT}>
        <ProductFields />
      </Form>
    </FormDrawer>
  );
}

function ProductFields() {
  const { t } = useTranslation();
  const { club } = useSessionData();
  return (
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
  );
}
