import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Cities, CitiesQuery, CITIES } from '@venue/domain';

/** Reference data for forms (seed 000 §3 "a list of cities per country"); any signed-in user. */
export async function referenceRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/Reference/Cities',
    { schema: { tags: ['reference'], querystring: CitiesQuery, response: { 200: Cities } } },
    async (req) =>
      [...CITIES[req.query.country]].sort((a, b) => a.localeCompare(b, req.query.country === 'Israel' ? 'he' : 'en')),
  );
}
