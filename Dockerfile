# syntax=docker/dockerfile:1
# MedLocker's api (and, with another command, its job worker): docs/OPERATIONS.md.
# Not built in this repository's CI: the machine it was written on runs no Docker daemon.

# 1. Install every package (Bun itself comes from npm, as a dev dependency) and build the two front ends.
FROM node:20-slim AS build
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
RUN node_modules/.bin/bun packages/console/build.ts \
 && node_modules/.bin/bun packages/patient/build.ts \
 && cp node_modules/bun/bin/bun.exe /usr/local/bin/bun \
 && npm prune --omit=dev --no-audit --no-fund --loglevel=error

# 2. What runs: Node (for the health check), Bun, the sources (Bun runs TypeScript as it is), the production
#    packages and the built front ends. No compiler, no test tools.
FROM node:20-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
COPY --from=build /usr/local/bin/bun /usr/local/bin/bun
COPY --from=build /app /app
# The image's `node` user (uid 1000) runs it; /data is PGlite's database when DATABASE_URL is unset.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# /healthz: the process answers (not the database: /readyz says that).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# As `npm start` does after its builds: migrate (once, under PostgreSQL's advisory lock), seed an empty
# database, serve. SIGTERM stops it gracefully within 10 s. The worker: `bun packages/api/src/worker.ts`.
CMD ["bun", "packages/api/src/main.ts"]
