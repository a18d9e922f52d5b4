# syntax=docker/dockerfile:1
# facetform: the render service, with the bundles of this checkout baked in.

# Build: every dependency, the TypeScript compiled, the bundles checked against repos/.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY bin ./bin
COPY scripts/pack.mjs ./scripts/pack.mjs
COPY src ./src
COPY repos ./repos
COPY dist ./dist
# Builds nothing new for released versions; fails if repos/ changed without a release.
RUN npx tsc -p tsconfig.json && node scripts/pack.mjs && node bin/facetform.js build

# Runtime: production dependencies only (serving needs no compiler), as the unprivileged node user.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=8790 HOST=0.0.0.0 BUNDLES_DIR=/app/dist
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/bin ./bin
COPY --from=build /app/lib ./lib
COPY --from=build /app/dist ./dist
COPY --from=build /app/src/console ./src/console
USER node
EXPOSE 8790
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8790) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/facetform.js", "serve"]
