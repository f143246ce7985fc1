/**
 * The files `memory-matrix init` writes into a user's repository, as text. Paths are relative to
 * the folder init writes into (`--dir`, default the working directory).
 */

/** memory-matrix.yaml: the repository's own targets and profiles over the built-in catalog. */
export const CONFIG_FILE = 'memory-matrix.yaml';
/** The folder for the repository's own golden datasets (what `sample` writes), with its README. */
export const GOLDEN_README = 'golden-data/README.md';
/** The PR-gate workflow for GitHub Actions. */
export const WORKFLOW_FILE = '.github/workflows/memory-matrix.yml';
/** The workflow's one job, whose name is the status check to make required. */
export const GATE_JOB = 'memory-matrix';
/** Where the workflow writes the report (report.md, report.json, junit.xml, report.html). */
export const WORKFLOW_REPORT_DIR = 'memory-matrix-report';

/**
 * memory-matrix.yaml: a `pr-gate` profile of the repository's own naming built-in targets (PostgreSQL
 * 17 and 18 + pgvector from their official images, PostgreSQL 18 + pgvector in process), an empty
 * `targets:` with a commented example of a target of their own, and a commented example of
 * `adapters:` (the user's own driver module). Validated by init as a memory-matrix.yaml over the
 * built-in catalog (targets `loadUserConfig` + `loadCatalog`) before anything is written.
 */
export function configYaml(version: string, drivers: readonly string[]): string {
  return `# memory-matrix settings of this repository (written by memory-matrix ${version} init).
#
# This file extends memory-matrix's built-in catalog (the targets.yaml of @memory-matrix/catalog,
# installed with memory-matrix: every built-in target, i.e. backend@version with its image, the
# versions it must report, its index and tolerances, and the profiles default, embedded, pr-gate,
# release, ...). Targets and profiles named here are added to it; one named like a built-in one
# replaces it. It is checked by the same schema as the built-in catalog: an unknown key or a bad
# value stops the run with exit 2 naming the line.

# Targets of your own: a backend (the drivers installed here: ${drivers.join(', ')}; \`npx memory-matrix
# targets\` also names the built-in targets whose adapter package is not installed) at the version,
# image and index you run in production. For example:
#   pgvector@prod:
#     backend: pgvector
#     provider: container
#     image: pgvector/pgvector:0.8.0-pg17
#     start: { kind: postgres, timeoutMs: 60000 }
#     expect: { postgres: "17", pgvector: "0.8.0" }
#     index: { type: hnsw, m: 16, efConstruction: 64, efSearch: 100 }
# A server you already run is a URL target on the command line instead:
#   npx memory-matrix --backend 'pgvector@url=postgres://user@host:5432/db'
targets: {}

profiles:
  # The gate .github/workflows/memory-matrix.yml runs on every pull request:
  #   npx memory-matrix --profile pr-gate --image-source registry
  # PostgreSQL 17 and 18 + pgvector from their official images, and PostgreSQL 18 + pgvector in
  # process (PGlite); without Docker only the in-process targets (fallbackTargets).
  pr-gate:
    description: This repository's gate before a storage change; semantics checks (durability, upgrade, eviction, fault and filter-semantics checks run in release).
    targets: [pgvector@pg17, pgvector@pg18, pgvector@pglite-pg18]
    fallbackTargets: [pgvector@pglite-pg16, pgvector@pglite-pg18]
    excludeChecks: [C15, C16, C19, C23, C31]
    excludedRunIn: release

# Your own memory module as a driver: driver name -> a TypeScript or JavaScript module (a path
# relative to this file, or a package name) that exports a BackendDriver (defineDriver from
# @memory-matrix/spec), loaded through tsx; a target of it names that backend and, for a client
# of a built-in server, that server. For example:
# adapters:
#   my-memory: ./memory-matrix/my-memory-driver.ts
# with, under targets:
#   my-memory@pglite-pg18: { backend: my-memory, server: pgvector@pglite-pg18 }
#
# A memory layer of your own that runs in this process (no server): its driver offers an embedded
# engine (\`embedded: { engines: { my-layer-1: … } }\`), and its target names the provider and engine.
# What the layer does not do is declared in its capabilities (e.g. embeddingReadBack: false, get
# returns no vector; dropRemoves: false, a drop that is a reset; closeReleases: false, no close()),
# and the checks skip those parts naming them. Step by step: docs/own-memory-module.md. For example:
# adapters:
#   my-layer: ./my-layer-driver.ts
# targets:
#   my-layer@1:
#     backend: my-layer
#     provider: embedded
#     engine: my-layer-1
#     expect: { my-layer: "1.0.0" }
#     index: { type: none }
`;
}

/** golden-data/README.md: how to sample a golden dataset from the user's own store and run on it. */
export function goldenReadme(version: string): string {
  return `# golden-data

Golden datasets of this repository for memory-matrix (written by memory-matrix ${version} init):
memories with their embeddings, recall queries, and the exact-oracle expectation the checks judge
every target against. \`npx memory-matrix --dataset <name>\` finds \`golden-data/<name>/\` here
first; without \`--dataset\` a run uses the built-in dataset \`agent-memories\` (5,111 real
sentences, 353 queries; package \`@memory-matrix/golden-data\`).

## Sample your own store

\`sample\` reads a pgvector table read-only, in one snapshot, and writes a dataset that runs at
once (the expectation is recorded). The same store and seed give the same bytes.

\`\`\`bash
npx memory-matrix sample --from postgres://user:password@host:5432/db --n 1200 --seed 7 --redact --name my-store
npx memory-matrix --dataset my-store --profile pr-gate
\`\`\`

- \`--table\` names your table (see \`sample --help\` for the default); its layout is detected from
  its columns (the tables LangChain.js, langchain-postgres, LlamaIndex, Mastra and mem0 write) and
  printed, and \`--columns\` overrides it field by field, e.g.
  \`--columns id=id,text=document,embedding=embedding,metadata=cmetadata\`.
- \`--redact\` replaces e-mail addresses, phone numbers, card numbers, person names and street
  addresses by \`[EMAIL]\` \`[PHONE]\` \`[CARD]\` \`[NAME]\` \`[ADDRESS]\` and prints what it found and what
  is left. Read that table, and the files, before you commit them.
- \`--stratify namespace|kind|age\` keeps each group's share; \`--queries\` sets how many rows are
  held out as queries (default n/10).
- The password is never printed or written; \`sample-provenance.json\` records the source without it.

Each file is sha256-checked when a run loads it: commit the folder as it is written (no
reformatting, no line-ending conversion; e.g. \`*.f32 binary\` and \`*.jsonl -text\` in
\`.gitattributes\`). \`npx memory-matrix sample --help\` lists every option.
`;
}

/**
 * .github/workflows/memory-matrix.yml: on pull requests (and by hand) one job, `memory-matrix`, runs the repository's `pr-gate` profile with `npx memory-matrix`
 * at `version`, pulling the targets' official images (`--image-source registry`: GitHub's runners
 * reach Docker Hub; the Debian-built images are for machines without a registry), writes
 * report.md to the job summary and uploads the report folder as an artifact; the job's status is
 * the run's exit status, so it is the one check to make required.
 */
export function workflowYaml(version: string): string {
  return `# memory-matrix PR gate (written by memory-matrix ${version} init).
# One job, "${GATE_JOB}": make it the required status check of your default branch
# (Settings > Branches > branch protection > Require status checks). It runs the pr-gate profile of
# memory-matrix.yaml. GitHub's runners reach Docker Hub, so the targets' official images are pulled
# (--image-source registry); images built from Debian packages are for machines without a registry.
name: memory-matrix

on:
  pull_request:
  workflow_dispatch:

permissions:
  contents: read

concurrency:
  group: memory-matrix-\${{ github.ref }}
  cancel-in-progress: true

jobs:
  ${GATE_JOB}:
    name: ${GATE_JOB}
    runs-on: ubuntu-24.04
    timeout-minutes: 30
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - name: Run the pr-gate profile
        run: npx --yes memory-matrix@${version} --profile pr-gate --image-source registry --report-dir ${WORKFLOW_REPORT_DIR}
      - name: Report in the job summary
        if: \${{ !cancelled() && hashFiles('${WORKFLOW_REPORT_DIR}/report.md') != '' }}
        run: cat ${WORKFLOW_REPORT_DIR}/report.md >> "$GITHUB_STEP_SUMMARY"
      - name: Upload the report
        if: \${{ !cancelled() }}
        uses: actions/upload-artifact@v4
        with:
          name: ${WORKFLOW_REPORT_DIR}
          path: ${WORKFLOW_REPORT_DIR}/
          if-no-files-found: warn
`;
}

/**
 * The three files init writes, relative path → content, in the order they are written; `drivers`:
 * the names of the drivers found (targets `driverNames()`), named in memory-matrix.yaml.
 */
export function initFiles(version: string, drivers: readonly string[]): Array<{ file: string; content: string }> {
  return [
    { file: CONFIG_FILE, content: configYaml(version, drivers) },
    { file: GOLDEN_README, content: goldenReadme(version) },
    { file: WORKFLOW_FILE, content: workflowYaml(version) },
  ];
}
