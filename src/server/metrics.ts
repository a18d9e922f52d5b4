/** Prometheus metrics, in a registry of the app's own so that several apps can live in one process. */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  renderDuration: Histogram<'collection'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({ name: 'facetform_http_requests_total', help: 'HTTP requests by method, route and status.', labelNames: ['method', 'route', 'status'], registers: [registry] }),
    renderDuration: new Histogram({
      name: 'facetform_render_duration_seconds',
      help: 'Time to validate and render one exec request, by collection.',
      labelNames: ['collection'],
      buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05],
      registers: [registry],
    }),
  };
}
