// The bare Koa routes the benchmarks compare with: exec reads the same body, parses it and answers a
// constant manifest; GET /healthz answers what ours does. Plain JavaScript so that its start-up is
// measured like ours, with no compiler.
import Router from '@koa/router';
import Koa from 'koa';
import getRawBody from 'raw-body';

const manifest = JSON.stringify(JSON.parse(process.env.BARE_MANIFEST ?? '{}'));
const app = new Koa();
const router = new Router();
router.post('/apis/repos/:vendor/:repository/:apiVersion/resources/collections/:collection/exec', async (ctx) => {
  const text = await getRawBody(ctx.req, { limit: 1024 * 1024, encoding: 'utf8' });
  ctx.state.body = JSON.parse(text);
  ctx.type = 'application/json';
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
