# The hub's production image: the gateway, the hub (reconciler included), the dashboard and the operator
# listener in one process, from the compiled JavaScript, without dev dependencies, as a non-root user.
# No container engine runs where this repository is developed, so the image is built elsewhere
# (docs/operations.md, "Containers"); its RUN steps are scripts/production-image.sh alone, which
# apps/cli/test/production-image.slow.test.ts runs on a fresh clone (build, prune, start, a key's
# GET /v1/catalog and POST /v1/quote/preview through the gateway).
#
#   docker build -t intent-hub .
#   docker run --read-only --tmpfs /tmp -v hub-data:/var/lib/intent-hub --env-file hub.env intent-hub
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY . .
# npm ci (the lockfile), npm run build (dist/ of every workspace), then npm prune --omit=dev: tsx,
# esbuild and TypeScript are gone before the runtime stage copies the folder.
RUN scripts/production-image.sh build
RUN scripts/production-image.sh prune

FROM ${NODE_IMAGE} AS runtime
# The image's own user (uid 1000) runs the stack; the application files stay root's and read-only.
COPY --from=build /app /app
# The data dir (dev.json, the admin channel's file; the embedded database only without DATABASE_URL):
# the one folder the stack writes, a volume, so the root file system can be read-only.
COPY --from=build --chown=node:node /app/ops/container/data/ /var/lib/intent-hub/
VOLUME ["/var/lib/intent-hub"]
WORKDIR /app
ENV NODE_ENV=production \
    HUB_DEVNET=0 \
    HUB_DATA_DIR=/var/lib/intent-hub \
    LOG_FORMAT=json \
    GATEWAY_HOST=0.0.0.0 \
    GATEWAY_PORT=8080 \
    DASHBOARD_HOST=0.0.0.0 \
    DASHBOARD_PORT=8081 \
    HUB_HOST=127.0.0.1 \
    METRICS_HOST=127.0.0.1 \
    METRICS_PORT=9090
USER node
EXPOSE 8080 8081
# The operator listener's /livez: the process answers (readiness, /readyz, is the balancer's business).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.METRICS_PORT || 9090) + '/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
STOPSIGNAL SIGTERM
ENTRYPOINT ["scripts/production-image.sh", "start"]
