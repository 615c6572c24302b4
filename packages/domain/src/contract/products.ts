import { ExportQuery, OkResponse, pageOf } from '../schemas/common.js';
import { Product, ProductInput, ProductListQuery, ProductPatch } from '../schemas/products.js';
import { IdParams, routes } from './route.js';

const edit = { permission: 'roleEditGeneralSettings' } as const;

/**
 * Products (seed 000 §7, seed 001 §3 "Product"). The list is for every signed-in
 * user (seed 000 §6 "Product list: always"); changes need roleEditGeneralSettings.
 */
export const products = routes(['products'], {
  list: { method: 'GET', path: '/api/Product', query: ProductListQuery, response: pageOf(Product), access: {} },
  /** The list as an .xlsx file, headers in `lang`. */
  export: { method: 'GET', path: '/api/Product/Export', query: ExportQuery, access: {} },
  get: { method: 'GET', path: '/api/Product/:id', params: IdParams, response: Product, access: {} },
  create: { method: 'POST', path: '/api/Product', body: ProductInput, response: Product, access: edit },
  update: {
    method: 'PATCH',
    path: '/api/Product/:id',
    params: IdParams,
    body: ProductPatch,
    response: Product,
    access: edit,
  },
  remove: { method: 'DELETE', path: '/api/Product/:id', params: IdParams, response: OkResponse, access: edit },
});
