import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { deleteClientBiometrics, deleteTemplate, faceImages } from './biometrics.service.js';

/** Biometric data of the club's clients (seed 000 §7; docs/api-gate.md "Biometrics"); the entries are `contract.biometrics`. */
export async function biometricRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const c = contract.biometrics;
  route(app, c.deleteTemplate, async (req) => deleteTemplate(db, bus, req.auth, req.params.id));
  route(app, c.deleteOfClient, async (req) => deleteClientBiometrics(db, bus, req.auth, req.params.id));
  route(app, c.faceImages, async (req) => faceImages(db, req.auth, req.params.id));
}
