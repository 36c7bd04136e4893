/**
 * GET /metrics: Prometheus' text format, for this process only (each process of a deployment serves its own).
 * Answered only with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); without METRICS_TOKEN the route does
 * not exist (404).
 */
import { timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { Registry } from 'prom-client';

export function metricsRouter(deps: { registry: Registry; token?: string }): Router {
  const router = Router();
  const { token } = deps;
  if (!token) return router;
  const expected = Buffer.from(`Bearer ${token}`);
  router.get('/metrics', async (req, res) => {
    const given = Buffer.from(req.get('authorization') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.status(401).set('WWW-Authenticate', 'Bearer realm="parley-metrics"').type('text/plain').send('Unauthorized');
      return;
    }
    res
      .set('Content-Type', deps.registry.contentType)
      .set('Cache-Control', 'no-store')
      .send(await deps.registry.metrics());
  });
  return router;
}
