import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ExportQuery, OkResponse, pageOf, Product, ProductInput, ProductListQuery, ProductPatch } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { once, sendXlsx } from '../../lib/xlsx.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.service.js';

const TYPE = { he: { 1: 'בסיסי', 2: 'תוספת', 3: 'חלון קופץ' }, en: { 1: 'Basic', 2: 'Extra', 3: 'Popup' } } as const;

/**
 * Products (seed 000 §7, seed 001 §3 "Product"). The list is for every signed-in
 * user (seed 000 §6 "Product list: always"); changes need roleEditGeneralSettings.
 */
export async function productRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['products'];
  const edit = { permission: 'roleEditGeneralSettings' as const };

  r.get(
    '/api/Product',
    { schema: { tags, querystring: ProductListQuery, response: { 200: pageOf(Product) } } },
    async (req) => listProducts(db, req.auth.clubId, req.query.showInactive),
  );
  r.get('/api/Product/Export', { schema: { tags, querystring: ExportQuery } }, async (req, reply) => {
    const { items } = await listProducts(db, req.auth.clubId);
    const he = req.query.lang === 'he';
    const h = (a: string, b: string) => (he ? a : b);
    return sendXlsx(
      reply,
      {
        filename: 'products.xlsx',
        sheet: h('מוצרים', 'Products'),
        rtl: he,
        columns: [
          { header: h('שם', 'Name'), value: (p) => p.name },
          { header: h('שם לתצוגה', 'Display name'), value: (p) => p.displayName },
          { header: h('תיאור', 'Description'), width: 30, value: (p) => p.description },
          { header: h('סוג', 'Type'), value: (p) => TYPE[req.query.lang][p.type as 1 | 2 | 3] ?? String(p.type) },
          { header: h('מחיר', 'Price'), value: (p) => p.price / 100 },
          { header: h('כמות מרבית', 'Max quantity'), value: (p) => p.maxQuantity },
          { header: h('פעיל', 'Active'), value: (p) => (p.active ? h('כן', 'Yes') : h('לא', 'No')) },
        ],
      },
      once(items),
    );
  });
  r.get('/api/Product/:id', { schema: { tags, params: IdParams, response: { 200: Product } } }, async (req) =>
    getProduct(db, req.auth.clubId, req.params.id),
  );
  r.post(
    '/api/Product',
    { config: edit, schema: { tags, body: ProductInput, response: { 200: Product } } },
    async (req) => createProduct(db, req.auth, req.body),
  );
  r.patch(
    '/api/Product/:id',
    { config: edit, schema: { tags, params: IdParams, body: ProductPatch, response: { 200: Product } } },
    async (req) => updateProduct(db, req.auth, req.params.id, req.body),
  );
  r.delete(
    '/api/Product/:id',
    { config: edit, schema: { tags, params: IdParams, response: { 200: OkResponse } } },
    async (req) => deleteProduct(db, req.auth, req.params.id),
  );
}
