# syntax=docker/dockerfile:1
# MedLocker's api and, with another command, its job worker (docs/OPERATIONS.md). Build it with the
# version and commit it names at /version, in its metrics and in its labels:
#   docker build --build-arg VERSION=$(node -p "require('./packages/api/package.json').version") \
#     --build-arg COMMIT=$(git rev-parse HEAD) -t medlocker .
# Node 24 is the active LTS line (Node 20 reached end of life on 2026-04-30); the tag is pinned: move it
# on when Node publishes a security release.

# 1. Install every package (Bun itself comes from npm, as a dev dependency) and build the two front ends.
FROM node:24.11.1-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY db/package.json db/
COPY packages/core/package.json packages/core/
COPY packages/api/package.json packages/api/
COPY packages/console/package.json packages/console/
COPY packages/patient/package.json packages/patient/
COPY packages/cli/package.json packages/cli/
COPY packages/locker-sim/package.json packages/locker-sim/
RUN npm ci --no-audit --no-fund --loglevel=error
COPY . .
# Production builds of the front ends write no source maps.
RUN NODE_ENV=production node_modules/.bin/bun packages/console/build.ts \
 && NODE_ENV=production node_modules/.bin/bun packages/patient/build.ts \
 && cp node_modules/bun/bin/bun.exe /usr/local/bin/bun \
 && npm prune --omit=dev --no-audit --no-fund --loglevel=error \
 && find . -name '*.map' -not -path './node_modules/*' -delete

# 2. What runs: Node (for the health check), Bun, the sources (Bun runs TypeScript as it is), the production
#    packages and the built front ends. No compiler, no test tools, no tests, benches or docs.
FROM node:24.11.1-bookworm-slim
ARG VERSION=0.0.0
ARG COMMIT=unknown
LABEL org.opencontainers.image.title="MedLocker" \
      org.opencontainers.image.description="Portal, API and tools for 24/7 medicine-collection lockers" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${COMMIT}" \
      org.opencontainers.image.source="https://github.com/medlocker/medlocker"
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data MEDLOCKER_VERSION=${VERSION} MEDLOCKER_COMMIT=${COMMIT}
WORKDIR /app
COPY --from=build /usr/local/bin/bun /usr/local/bin/bun
COPY --from=build --chown=root:root /app /app
# The image's `node` user (uid 1000) runs it and may write only /data (PGlite's database when
# DATABASE_URL is unset, and the uploaded logos); the code stays root's, read-only to it.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# /healthz: the process answers (not the database: /readyz says that, and the balancer asks it).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# As `npm start` does after its builds: migrate (once, under PostgreSQL's advisory lock), seed the first
# admin into an empty database, serve. SIGTERM: /readyz fails for SHUTDOWN_DRAIN_SECONDS (5), then it
# stops within 10 s. The worker: `bun packages/api/src/worker.ts`.
CMD ["bun", "packages/api/src/main.ts"]
