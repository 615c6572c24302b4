import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { exportProducts } from './products.export.js';
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './products.service.js';

/** Products (seed 000 §7, seed 001 §3 "Product"); the entries are `contract.products`. */
export async function productRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.products;
  route(app, c.list, async (req) => listProducts(db, req.auth.clubId, req.query.showInactive));
  route(app, c.export, async (req, reply) => exportProducts(db, req.auth.clubId, req.query.lang, reply));
  route(app, c.get, async (req) => getProduct(db, req.auth.clubId, req.params.id));
  route(app, c.create, async (req) => createProduct(db, req.auth, req.body));
  route(app, c.update, async (req) => updateProduct(db, req.auth, req.params.id, req.body));
  route(app, c.remove, async (req) => deleteProduct(db, req.auth, req.params.id));
}
