# Cirrus in a container. NOT BUILT OR RUN YET: written on a machine without a
# usable Docker (see docs/deployment.md); treat it as a starting point and
# build it once before relying on it.
#
#   docker build -t cirrus .
#   docker run -p 5212:5212 -v cirrus-data:/var/lib/cirrus \
#     -e CIRRUS_BASE_URL=http://localhost:5212 cirrus
#
# Stage 1 installs every dependency (the build needs TypeScript and Vite) and
# builds the server (dist/) and the web app (web/dist); stage 2 keeps only the
# production dependencies and the build output, and runs as a non-root user.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Native modules (better-sqlite3) fall back to compiling when no prebuilt
# binary matches: give them a toolchain in this stage only.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    CIRRUS_HOST=0.0.0.0 \
    CIRRUS_PORT=5212 \
    CIRRUS_DATA_DIR=/var/lib/cirrus
WORKDIR /app
# A fixed uid/gid, so a volume's ownership is predictable across rebuilds.
RUN groupadd --system --gid 10001 cirrus \
 && useradd --system --uid 10001 --gid cirrus --home-dir /var/lib/cirrus --shell /usr/sbin/nologin cirrus \
 && mkdir -p /var/lib/cirrus \
 && chown cirrus:cirrus /var/lib/cirrus
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/web/dist ./web/dist
USER cirrus
VOLUME ["/var/lib/cirrus"]
EXPOSE 5212
# Health names the database, storage and Redis (503 when one fails). The image
# has no curl: Node's fetch asks. See docs/deployment.md on why a load balancer
# should route on /api/v4/site/ping rather than on this.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.CIRRUS_PORT||5212)+'/api/v4/site/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop) drains requests in flight for up to 30 s: give
# `docker stop -t 35` / compose `stop_grace_period: 35s`.
STOPSIGNAL SIGTERM
# The young-generation cap is the one `npm start` uses (docs/deployment.md, "Memory").
CMD ["node", "--max-semi-space-size=4", "dist/server/src/main.js", "serve"]
