#!/usr/bin/env bash
# Build every package and pack every publishable one, as `npm publish` would ship them.
# Usage: bash .ci/pack.sh <dest-dir>  — writes <dest-dir>/*.tgz and <dest-dir>/pack.json (pnpm's
# list of each tarball and its files). The publishable packages are every workspace package but
# the private root: packages/*, golden-data/ (@memory-matrix/golden-data) and matrix/
# (@memory-matrix/catalog). `pnpm pack` applies each package's publishConfig (main, types, exports
# → dist/) and rewrites workspace: dependencies to versions.
# Exit status: 0 packed; 2 usage; otherwise the failing command's.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bash .ci/pack.sh <dest-dir>" >&2; exit 2; }
cd "$(dirname "$0")/.."
mkdir -p "$1"
dest="$(cd "$1" && pwd)"
pnpm exec turbo run build --output-logs=errors-only >&2
pnpm --recursive --filter './packages/*' --filter ./golden-data --filter ./matrix pack --pack-destination "$dest" --json >"$dest/pack.json"
