#!/usr/bin/env bash
# The production copy of the hub, made in the checkout this script is in: exactly the lockfile's
# packages, the TypeScript compiled to JavaScript (npm run build), the development dependencies
# dropped. The Dockerfile's build stage runs `build` and `prune`, its runtime stage `start`;
# apps/cli/test/production-image.slow.test.ts runs the same steps on a fresh clone and starts it.
#
#   scripts/production-image.sh          build, then prune
#   scripts/production-image.sh build    npm ci, npm run build
#   scripts/production-image.sh prune    npm prune --omit=dev; tsx, esbuild and TypeScript removed
#   scripts/production-image.sh start    runs `hub start` from the build (the image's command)
set -euo pipefail
cd "$(dirname "$0")/.."

build() {
  npm ci --no-audit --no-fund
  npm run build
}

prune() {
  npm prune --omit=dev --no-audit --no-fund
  # TypeScript is only an optional peer of @solana/kit and viem, and the build never loads it: gone, so
  # that nothing can. The start-up cache of a development checkout has no use here either.
  rm -rf node_modules/typescript node_modules/.cache
  for name in tsx esbuild typescript; do
    if [ -e "node_modules/$name" ]; then
      echo "production-image: node_modules/$name is still installed after the prune" >&2
      exit 1
    fi
  done
  if [ ! -f apps/cli/dist/main.js ]; then
    echo "production-image: apps/cli/dist/main.js is missing: run the build first" >&2
    exit 1
  fi
}

case "${1:-all}" in
  all)
    build
    prune
    ;;
  build) build ;;
  prune) prune ;;
  start)
    shift
    # The flags of `npm start` (apps/cli/test/node-flags.test.ts holds them together), without the
    # `source` condition: the workspace packages resolve to their dist/.
    exec node --max-semi-space-size=64 apps/cli/bin/hub.js start "$@"
    ;;
  *)
    echo "usage: scripts/production-image.sh [all|build|prune|start]" >&2
    exit 2
    ;;
esac
