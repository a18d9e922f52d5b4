// The bare Koa routes the benchmarks compare with: exec reads the same body, parses it and answers a
// constant manifest; GET /healthz answers what ours does. Plain JavaScript so that its start-up is
// measured like ours, with no compiler.
import Router from '@koa/router';
import Koa from 'koa';
import getRawBody from 'raw-body';

const manifest = JSON.stringify(JSON.parse(process.env.BARE_MANIFEST ?? '{}'));
const HDRS = [["X-Request-Id", "596a0377-2259-4af9-bce4-7c28287cecc3"], ["X-Content-Type-Options", "nosniff"], ["Cache-Control", "no-store"], ["RateLimit-Policy", "\"key\";q=600;w=60"], ["RateLimit", "\"key\";r=599;t=1"], ["Vary", "Accept"], ["X-Facetform-Release", "1.3.0"], ["X-Facetform-Bundle-Digest", "sha256:7d65fdc3b4c80435be3b79b237912a36df1965fbc3a24be04094f2b0fd6aaa5b"]];
const app = new Koa();
const router = new Router();
router.post('/apis/repos/:vendor/:repository/:apiVersion/resources/collections/:collection/exec', async (ctx) => {
  const text = await getRawBody(ctx.req, { limit: 1024 * 1024, encoding: 'utf8' });
  ctx.state.body = JSON.parse(text);
  ctx.type = "application/json"; for (const [k, v] of HDRS) ctx.res.setHeader(k, v);
  ctx.body = manifest;
});
router.get('/healthz', (ctx) => {
  ctx.body = { status: 'ok' };
});
app.use(router.routes());
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stderr.write(`bare koa on http://127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
