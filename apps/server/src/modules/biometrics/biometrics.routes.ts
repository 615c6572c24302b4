import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BiometricDeleted, FaceImages } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { deleteClientBiometrics, deleteTemplate, faceImages } from './biometrics.service.js';

/** Biometric data of the club's clients (seed 000 §7; docs/api-gate.md "Biometrics"). */
export async function biometricRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const tags = ['biometrics'];

  r.delete(
    '/api/DeleteFmd/:id',
    {
      config: { permission: 'roleEditClients' },
      schema: { tags, params: IdParams, response: { 200: BiometricDeleted } },
    },
    async (req) => deleteTemplate(db, bus, req.auth, req.params.id),
  );
  r.delete(
    '/api/Client/DeleteBiometricDataForClient/:id',
    {
      config: { permission: 'roleEditClients' },
      schema: { tags, params: IdParams, response: { 200: BiometricDeleted } },
    },
    async (req) => deleteClientBiometrics(db, bus, req.auth, req.params.id),
  );
  r.get(
    '/api/Client/GetFaceImages/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: FaceImages } },
    },
    async (req) => faceImages(db, req.auth, req.params.id),
  );
}
