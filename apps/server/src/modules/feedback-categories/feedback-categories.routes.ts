import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import {
  createFeedbackCategory,
  deleteFeedbackCategory,
  getFeedbackCategory,
  listFeedbackCategories,
  updateFeedbackCategory,
} from './feedback-categories.service.js';

/** Feedback categories of the signed-in club (seed 000 §7; docs/messages.md); the entries are `contract.feedbackCategories`. */
export async function feedbackCategoryRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.feedbackCategories;
  route(app, c.list, async (req) => listFeedbackCategories(db, req.auth.clubId));
  route(app, c.get, async (req) => getFeedbackCategory(db, req.auth.clubId, req.params.id));
  route(app, c.create, async (req) => createFeedbackCategory(db, req.auth, req.body));
  route(app, c.update, async (req) => updateFeedbackCategory(db, req.auth, req.params.id, req.body));
  route(app, c.remove, async (req) => deleteFeedbackCategory(db, req.auth, req.params.id));
}
