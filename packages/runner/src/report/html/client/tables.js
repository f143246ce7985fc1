/*
 * memory-matrix report.html, browser side (2/4): verdict, target × check matrix, capability matrix,
 * client vs server side by side, durability.
 */
const { h } = MM;

/**
 * The verdict in words, as report.md's heading words it (report/verdict.ts `verdictHeading`):
 * "all checks passed" only when no check was skipped; the counts when some were; "no check ran"
 * when every check was skipped (exit 1).
 */
MM.verdictWords = (r) => {
  const s = r.summary;
  if (r.exitCode === 2) return 'the run could not be carried out';
  const ran = s.passed + s.failed + (s.notRun || 0) + (s.known || 0);
  if (r.exitCode === 1) return ran === 0 && !s.cellErrors ? (s.skipped ? `no check ran: every check was skipped (${s.skipped} skipped)` : 'no check ran: the report holds no check') : 'checks failed';
  if (!s.skipped) return 'all checks passed';
  const counts = `${s.passed} passed${s.known ? `, ${s.known} known` : ''}, ${s.skipped} skipped`;
  return s.skipped > ran ? `no check failed, but most were skipped: ${counts}` : `no check failed: ${counts}`;
};

/** Verdict banner and the pass / fail / skip counts (report.summary). */
MM.summary = (r) => {
  const s = r.summary;
  const verdict = MM.verdictWords(r);
  const cls = r.exitCode === 0 ? 'ok' : r.exitCode === 1 ? 'fail' : 'error';
  const d = r.dataset;
  return h(
    'header',
    { id: 'summary' },
    h('h1', null, 'memory-matrix report'),
    h('div', { class: `verdict ${cls}`, dataset: { mm: 'verdict', exit: r.exitCode } }, `${r.exitCode === 0 ? '✔' : r.exitCode === 1 ? '✘' : '⚠'} ${verdict} (exit ${r.exitCode})`),
    h(
      'div',
      { class: 'counts' },
      ...[
        ['passed', s.passed],
        ['failed', s.failed],
        ['known', s.known || 0],
        ['skipped', s.skipped],
        ['cellErrors', s.cellErrors],
      ].map(([k, v]) => h('span', { class: `count ${k}` }, h('b', { dataset: { mm: `count-${k}` } }, String(v)), ` ${k === 'cellErrors' ? 'cells could not run' : k}`)),
      s.notRun ? h('span', { class: 'count cellErrors' }, h('b', { dataset: { mm: 'count-not-run' } }, String(s.notRun)), ' not run') : null,
      s.stale ? h('span', { class: 'count stale' }, h('b', { dataset: { mm: 'count-stale' } }, String(s.stale)), ' stale knownFailures entries') : null,
      s.notReproduced ? h('span', { class: 'count stale' }, h('b', { dataset: { mm: 'count-not-reproduced' } }, String(s.notReproduced)), ' known failures not reproduced (intermittent)') : null,
    ),
    r.error ? h('p', { class: 'error-msg', dataset: { mm: 'run-error' } }, `${r.error.code}: ${r.error.message}`) : null,
    h(
      'p',
      { class: 'meta' },
      d ? `Dataset ${d.name} v${d.version}: ${d.memories} memories, ${d.queries} queries, ${d.dim}-d ${d.metric}. ` : 'No dataset loaded. ',
      `Run ${r.startedAt} (${(r.durationMs / 1000).toFixed(1)} s), memory-matrix ${r.tool.version}`,
      r.shard ? `, shard ${r.shard}` : '',
      r.mergedFrom ? `, merged from ${r.mergedFrom.length} shard reports` : '',
      '.',
    ),
  );
};

/** The rows of check ids in first-seen order across cells. */
const checkIds = (cells) => [...new Map(cells.flatMap((c) => c.checks.map((k) => [k.id, `${k.id} ${k.name}`]))).entries()];

/** The failure lines of a failed check, one per cause (embedded by the writer as #mm-failure-lines; failure-groups.ts). */
let lineIndex;
function failureLinesOf(cell, r) {
  if (lineIndex === undefined) {
    const el = document.getElementById('mm-failure-lines');
    lineIndex = el ? JSON.parse(el.textContent) : {};
  }
  return lineIndex[`${cell.target} ${r.id}`] || r.failures.slice(0, 20).map((f) => `[${f.kind}] ${f.message}`);
}

/** The capabilities whose parts a passed check skipped: figures valued `skipped (capability: <flag>)`, each flag once (as report/model.ts skippedPartsOf). */
function skippedParts(r) {
  const flags = Object.values(r.figures || {}).map((v) => (typeof v === 'string' ? /^skipped \(capability: ([^)]+)\)$/.exec(v) : null));
  return [...new Set(flags.filter(Boolean).map((m) => m[1]))];
}

function verdictCell(cell, id) {
  const r = cell.checks.find((k) => k.id === id);
  const base = { dataset: { mm: 'check', target: cell.target, check: id, status: r ? r.status : cell.status === 'error' ? 'error' : 'none' } };
  if (!r) return h('td', { ...base, class: cell.status === 'error' ? 'st-error' : 'st-none', title: cell.error ? cell.error.message : 'not run' }, cell.status === 'error' ? 'error' : '–');
  const k = r.knownFailure;
  if (r.status === 'passed' && k)
    return h(
      'td',
      { ...base, class: 'st-passed', title: k.message },
      'pass',
      h('small', { class: 'stale', dataset: { mm: 'stale' } }, k.intermittent ? 'known failure not reproduced this run (intermittent)' : 'STALE knownFailures entry: remove it'),
    );
  const limit = cell.cannotShow && r.status !== 'skipped' ? cell.cannotShow[r.id] : undefined;
  if (r.status === 'passed') {
    // A skipped part is never a silent pass: named beside the verdict (report/model.ts skippedPartsOf).
    const parts = skippedParts(r);
    return h(
      'td',
      { ...base, class: 'st-passed', title: limit ? `cannot show ${limit}` : `${Math.round(r.durationMs)} ms` },
      'pass',
      parts.length ? h('small', { class: 'stale', dataset: { mm: 'part-skipped' } }, `part skipped: capability ${parts.join(', ')}`) : null,
      limit ? h('small', { class: 'stale', dataset: { mm: 'cannot-show' } }, `cannot show ${limit}`) : null,
    );
  }
  if (r.status === 'known')
    return h(
      'td',
      { ...base, class: 'st-known', title: k.message },
      h(
        'details',
        null,
        h('summary', null, `KNOWN (${r.failures.length})`),
        h('p', null, k.reason, ' ', /^https?:\/\//.test(k.link) ? h('a', { href: k.link, rel: 'noreferrer' }, k.link) : k.link),
        h('ol', null, ...r.failures.slice(0, 20).map((f) => h('li', null, `[${f.kind}] ${f.message}`))),
        r.failures.length > 20 ? h('p', null, `… ${r.failures.length - 20} more in report.json`) : null,
      ),
    );
  if (r.status === 'skipped') return h('td', { ...base, class: 'st-skipped', title: r.skipReason || '' }, 'skip', h('small', null, r.skipReason || ''));
  const head = r.error ? `${r.error.code ? r.error.code + ': ' : ''}${r.error.message}` : `${r.failures.length} failure(s)`;
  const first = r.error ? head : (r.failures[0]?.message ?? head);
  return h(
    'td',
    { ...base, class: 'st-failed', title: first },
    h(
      'details',
      null,
      h('summary', null, r.error && r.error.code === 'NOT_RUN' ? 'NOT RUN' : `FAIL (${r.failures.length || 'error'})`),
      h('p', null, head),
      k ? h('p', null, `knownFailures entry (${k.link}): ${k.message}`) : null,
      h('ol', null, ...failureLinesOf(cell, r).map((line) => h('li', null, line))),
    ),
  );
}

/** Target × check: pass / FAIL (expand for the failures, hover for the first) / KNOWN (amber: reason, upstream link, failures) / skip with reason, then figures. */
MM.checkMatrix = (r) => {
  const cells = r.cells;
  if (!cells.length) return MM.section('checks', 'Target × check', h('p', null, 'No cell ran.'));
  const table = h(
    'table',
    { class: 'matrix', id: 'check-matrix' },
    h('thead', null, h('tr', null, h('th', null, 'check'), ...cells.map((c) => h('th', { dataset: { target: c.target } }, c.target)))),
    h(
      'tbody',
      null,
      ...checkIds(cells).map(([id, title]) => h('tr', null, h('th', { scope: 'row' }, title), ...cells.map((c) => verdictCell(c, id)))),
      h('tr', { class: 'fig' }, h('th', { scope: 'row' }, 'recall@10 (mean)'), ...cells.map((c) => MM.recallCell(c, 'recallAtKMean', 'recall'))),
      h('tr', { class: 'fig' }, h('th', { scope: 'row' }, 'recall@10 (worst query)'), ...cells.map((c) => MM.recallCell(c, 'recallAtKMin', 'recall-min'))),
      h('tr', { class: 'fig' }, h('th', { scope: 'row' }, 'max |Δscore|'), ...cells.map((c) => MM.num(MM.maxDelta(c), 'max-delta', c.target))),
    ),
  );
  const errors = cells.filter((c) => c.error).map((c) => h('p', { class: 'error-msg' }, `${c.target} could not run: ${c.error.code ? c.error.code + ': ' : ''}${c.error.message}`));
  const skipped = r.skippedTargets.map((t) => h('p', { class: 'note' }, `skipped target ${t.target}: ${t.reason}`));
  return MM.section('checks', 'Target × check', h('div', { class: 'scroll' }, table), ...errors, ...skipped);
};

/** Capability × target: ✓ (with the declared list/number/level), or ✗ (with a level that offers nothing, `✗ eventual`) and the reason. */
MM.capabilityMatrix = (r) => {
  const m = r.capabilityMatrix;
  if (!m || !m.targets.length) return MM.section('capabilities', 'Capabilities', h('p', null, 'No capabilities recorded.'));
  const glyph = (e) =>
    !e.ok
      ? Array.isArray(e.value) && e.value.length
        ? `✗ ${e.value.join(', ')}`
        : '✗'
      : Array.isArray(e.value)
        ? `✓ ${e.value.join(', ')}`
        : typeof e.value === 'number'
          ? `✓ ${e.value}`
          : e.value === null
            ? '✓ no limit'
            : '✓';
  const table = h(
    'table',
    { class: 'matrix', id: 'capability-matrix' },
    h('thead', null, h('tr', null, h('th', null, 'capability'), ...m.targets.map((t) => h('th', null, t.target)))),
    h(
      'tbody',
      null,
      ...m.capabilities.map((cap) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, cap),
          ...m.targets.map((t) => {
            const e = t.entries[cap];
            if (!e) return h('td', { class: 'st-none' }, '–');
            return h(
              'td',
              { class: e.ok ? 'cap-ok' : 'cap-no', title: e.reason || '', dataset: { mm: 'capability', target: t.target, capability: cap, ok: String(e.ok) } },
              glyph(e),
              e.reason ? h('small', null, e.reason) : null,
            );
          }),
        ),
      ),
    ),
  );
  return MM.section('capabilities', 'Capabilities (target × capability)', h('div', { class: 'scroll' }, table));
};

/**
 * C15 durability, target × configuration (report.durability, model.ts `durabilityRows`): the same
 * columns as report.md; `<configuration> (history)` rows count chat messages, the others memories.
 */
MM.durabilityTable = (r) => {
  const rows = r.durability || [];
  if (!rows.length) return null; // C15 did not run: no section
  const cols = ['target', 'configuration', 'promises', 'acknowledged', 'lost', 'phantom in flight', 'phantom unknown', 'duplicated', 'changed', 'cycles', 'verdict'];
  const verdict = (v) => (v === 'fail' ? 'FAIL' : v === 'known' ? 'KNOWN' : v === 'reported' ? 'lost (not promised)' : 'pass');
  const table = h(
    'table',
    { class: 'matrix', id: 'durability-table' },
    h('thead', null, h('tr', null, ...cols.map((c) => h('th', null, c)))),
    h(
      'tbody',
      null,
      ...rows.map((x) =>
        h(
          'tr',
          { dataset: { mm: 'durability', target: x.target, configuration: x.configuration, verdict: x.verdict } },
          h('th', { scope: 'row' }, x.target),
          h('td', null, x.configuration),
          h('td', null, x.durable ? 'durable' : 'not durable'),
          ...[x.acknowledged, x.lost, x.phantomInFlight, x.phantomUnknown, x.duplicated, x.changed, x.cycles].map((v) => h('td', { class: 'num' }, String(v))),
          h('td', { class: x.verdict === 'fail' ? 'st-failed' : x.verdict === 'known' ? 'st-known' : x.verdict === 'reported' ? 'st-skipped' : 'st-passed' }, verdict(x.verdict)),
        ),
      ),
    ),
  );
  return MM.section('durability', 'Durability (C15: acknowledged writes across kill -9 and restart on the same storage)', h('div', { class: 'scroll' }, table));
};

/**
 * Client vs server (report.sideBySide, report/side-by-side.ts): each client target next to the raw
 * target of the same server — how many checks agree, then one row per check that differs, with each
 * side's verdict and key figures and why (capability, known upstream failure with its link, the
 * failure, or the figures). Null (no section) when the run has no such pair.
 */
MM.sideBySide = (r) => {
  const pairs = r.sideBySide || [];
  if (!pairs.length) return null;
  const side = (v) => {
    if (v.status === 'absent') return h('td', { class: 'st-none' }, '–');
    const label = v.status === 'passed' ? 'pass' : v.status === 'failed' ? 'FAIL' : v.status === 'known' ? 'KNOWN' : 'skip';
    return h('td', { class: `st-${v.status}` }, label, v.figures ? h('small', null, v.figures) : null);
  };
  const why = (d) =>
    h(
      'td',
      { dataset: { mm: 'side-by-side-why', kind: d.why.kind } },
      h('b', null, `${d.why.kind}: `),
      d.why.text,
      d.why.link && /^https?:\/\//.test(d.why.link) ? h('span', null, ' (', h('a', { href: d.why.link, rel: 'noreferrer' }, d.why.link), ')') : null,
    );
  const blocks = pairs.map((p) =>
    h(
      'div',
      { class: 'side-by-side', dataset: { mm: 'side-by-side', client: p.client, server: p.server } },
      h('p', null, h('b', null, p.client), ' next to ', h('b', null, p.server), ` (the same server without the client): ${p.same} of ${p.compared} checks agree, ${p.differences.length} differ.`),
      p.differences.length
        ? h(
            'div',
            { class: 'scroll' },
            h(
              'table',
              { class: 'matrix' },
              h('thead', null, h('tr', null, h('th', null, 'check'), h('th', null, p.client), h('th', null, p.server), h('th', null, 'why'))),
              h(
                'tbody',
                null,
                ...p.differences.map((d) => h('tr', { dataset: { mm: 'side-by-side-row', check: d.id } }, h('th', { scope: 'row' }, `${d.id} ${d.name}`), side(d.client), side(d.server), why(d))),
              ),
            ),
          )
        : null,
    ),
  );
  return MM.section('side-by-side', 'Client vs server, side by side', ...blocks);
};
