/*
 * memory-matrix report.html, browser side (4/4): provenance, then the page is assembled from the
 * embedded report.json (<script type="application/json" id="mm-report">) and the plots drawn.
 */
const { h } = MM;
MM.later = [];

const kv = (rows) =>
  h('table', { class: 'kv' }, h('tbody', null, ...rows.filter(Boolean).map(([k, v, mm]) => h('tr', null, h('th', { scope: 'row' }, k), h('td', { dataset: mm ? { mm } : undefined }, v ?? '–')))));

const indexText = (i) =>
  Object.entries(i)
    .map(([k, v]) => (k === 'type' ? v : `${k}=${v}`))
    .join(' ');
const ms = (v) => (v === null || v === undefined ? '–' : `${Math.round(v)} ms`);

/** Who made the report, from what data, against what servers. */
MM.provenance = (r) => {
  const d = r.dataset;
  const e = r.expectation;
  const run = kv([
    ['tool', `${r.tool.name} ${r.tool.version} (node ${r.tool.node})`, 'tool-version'],
    ['started / finished', `${r.startedAt} / ${r.finishedAt} (${(r.durationMs / 1000).toFixed(1)} s)`, 'run-time'],
    ['command', r.argv.join(' ') || '(defaults)'],
    r.cpu && [
      'CPU time',
      `${r.cpu.totalS} s (this process ${r.cpu.runnerS}, ended child processes ${r.cpu.childProcessesS ?? 'unknown'}, containers ${r.cpu.containersS}${r.cpu.containerSegmentsUnread ? ', at least' : ''}): ${r.cpu.coresBusy} cores busy on average`,
      'cpu-time',
    ],
    ['profile / shard', `${r.profile ?? '–'} / ${r.shard ?? '–'}`],
    r.catalog && ['target catalog', `${r.catalog.file} (MM_CATALOG, in place of matrix/targets.yaml)`, 'catalog'],
    ['Docker engine', r.host.docker ? 'answered' : `not used: ${r.host.dockerReason}`],
    r.host.calibration && [
      'host factor',
      `${r.host.calibration.factor} at the start (${r.host.calibration.source === 'MM_HOST_FACTOR' ? 'set by MM_HOST_FACTOR' : `contention ${r.host.calibration.contention}, speed ${r.host.calibration.speed}`}; load average ${r.host.calibration.loadAverage} on ${r.host.calibration.cpus} CPUs): time limits × the factor`,
      'host-factor',
    ],
    d && ['dataset', `${d.name} v${d.version} (${d.dir}): ${d.memories} memories, ${d.queries} queries, ${d.dim}-d ${d.metric}`],
    d && ['dataset sha256', h('code', null, d.sha256), 'dataset-sha256'],
    e && ['expectation', `${e.file} (source: ${e.source})`],
    e && ['expectation sha256', h('code', null, e.sha256)],
    ...(r.mergedFrom || []).map((m, i) => [`shard report ${i + 1}`, `${m.file} (shard ${m.shard ?? '–'}, started ${m.startedAt}, exit ${m.exitCode}, memory-matrix ${m.toolVersion})`]),
  ]);
  const cols = ['target', 'provider', 'server', 'components', 'image', 'image id', 'index', 'tolerances', 'timings'];
  const targets = h(
    'table',
    { class: 'matrix', id: 'provenance-targets' },
    h('thead', null, h('tr', null, ...cols.map((c) => h('th', null, c)))),
    h(
      'tbody',
      null,
      ...r.cells.map((c) =>
        h(
          'tr',
          { dataset: { target: c.target } },
          h('th', { scope: 'row' }, c.target),
          h('td', null, c.provider),
          h('td', { title: c.serverVersion ?? '' }, (c.serverVersion ?? '–').split(' on ')[0]),
          h(
            'td',
            null,
            Object.entries(c.components)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ') || '–',
          ),
          h('td', null, c.image ?? '–'),
          h('td', null, c.imageId ? h('code', { title: c.imageId }, c.imageId.slice(0, 19)) : '–'),
          h('td', null, indexText(c.index)),
          h('td', null, ...Object.entries(c.tolerances).map(([k, v]) => h('div', null, `${k} ${v}`))),
          // The steps prepared before the checks (report.json cells[].steps: the golden load first), each with its time and limit; older reports: the timings.
          c.steps && c.steps.length
            ? h(
                'td',
                null,
                h('div', null, `start ${ms(c.timings.startMs)}`),
                ...c.steps.map((s) =>
                  h(
                    'div',
                    { title: `limit ${s.limitMs} ms × host factor ${s.hostFactor}${s.error ? `: ${s.error.message}` : ''}` },
                    `${s.label}: ${s.status === 'done' ? ms(s.durationMs) : s.status === 'failed' ? `FAIL after ${ms(s.durationMs)} (${s.error?.code ?? 'error'})` : 'not run'}`,
                  ),
                ),
              )
            : h('td', null, h('div', null, `start ${ms(c.timings.startMs)}`), h('div', null, `load ${ms(c.timings.loadMs)}`), h('div', null, `index ${ms(c.timings.indexMs)}`)),
        ),
      ),
    ),
  );
  return MM.section('provenance', 'Provenance', run, h('div', { class: 'scroll' }, targets));
};

(() => {
  const report = JSON.parse(document.getElementById('mm-report').textContent);
  const app = document.getElementById('app');
  // A part that cannot render says so on the page (and in the console) instead of vanishing.
  const guarded = (name, fn) => {
    try {
      fn();
    } catch (err) {
      console.error(err);
      app.append(h('p', { class: 'error-msg', dataset: { mm: 'render-error' } }, `could not render ${name}: ${err && err.message}`));
    }
  };
  const parts = {
    summary: MM.summary,
    checks: MM.checkMatrix,
    capabilities: MM.capabilityMatrix,
    operators: MM.operatorTable,
    sideBySide: MM.sideBySide,
    durability: MM.durabilityTable,
    recall: MM.recallChart,
    delta: MM.deltaChart,
    ranks: MM.rankChanges,
    provenance: MM.provenance,
  };
  // A part with nothing to show (the durability table without C15) returns null and is left out.
  for (const [name, part] of Object.entries(parts))
    guarded(name, () => {
      const el = part(report);
      if (el) app.append(el);
    });
  MM.later.forEach((draw, i) => guarded(`plot ${i + 1}`, draw));
  document.documentElement.dataset.mmRendered = 'true';
})();
