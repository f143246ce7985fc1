/*
 * memory-matrix report.html, browser side (3/4): the plots (Chart.js, inlined), drawn from the
 * embedded report.json — recall@k per target, a histogram of per-query |Δscore|, rank changes of
 * the worst queries.
 */
const { h } = MM;
Chart.defaults.animation = false;
Chart.defaults.font.family = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
Chart.defaults.maintainAspectRatio = false;

const canvasBox = (id, height) => {
  const canvas = h('canvas', { id, role: 'img' });
  return { box: h('div', { class: 'chart', style: `height:${height}px` }, canvas), canvas };
};

/** recall@k per target: C05 mean and worst query (ANN), C03 mean (exact), with the C05 floor. */
MM.recallChart = (r) => {
  const cells = r.cells.filter((c) => c.status === 'ran');
  if (!cells.length) return MM.section('plot-recall', 'recall@k per target', h('p', null, 'No cell ran.'));
  const { box, canvas } = canvasBox('chart-recall', 280);
  const series = [
    ['C05 ann-recall: mean', 'C05', 'recallAtKMean', 1],
    ['C05 ann-recall: worst query', 'C05', 'recallAtKMin', 0.55],
    ['C03 topk-exact: mean', 'C03', 'recallAtKMean', 0.25],
  ];
  const datasets = series.map(([label, id, key, a], i) => ({
    label,
    data: cells.map((c) => MM.figure(c, id, key)),
    backgroundColor: cells.map((_, j) => MM.color(j, a)),
    borderColor: cells.map((_, j) => MM.color(j)),
    borderWidth: 1,
    order: i + 1,
  }));
  const floors = cells.map((c) => MM.figure(c, 'C05', 'floor'));
  datasets.push({
    type: 'line',
    label: 'recall floor (mean)',
    data: floors,
    showLine: false,
    pointStyle: 'line',
    pointRadius: 28,
    pointBorderWidth: 2,
    borderColor: '#111',
    backgroundColor: '#111',
    order: 0,
  });
  // A series no target has (e.g. C05 not run) is left out of the chart and its legend.
  const shown = datasets.filter((d) => d.data.some((v) => typeof v === 'number'));
  const lows = shown.flatMap((d) => d.data).filter((v) => typeof v === 'number');
  const min = Math.max(0, Math.floor((Math.min(1, ...lows) - 0.05) * 10) / 10);
  MM.later.push(
    () =>
      new Chart(canvas, {
        type: 'bar',
        data: { labels: cells.map((c) => c.target), datasets: shown },
        options: { scales: { y: { min, max: 1, title: { display: true, text: 'recall@k' } } }, plugins: { tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${ctx.raw}` } } } },
      }),
  );
  return MM.section(
    'plot-recall',
    'recall@k per target',
    box,
    h(
      'p',
      { class: 'note' },
      'Bars: C05 mean and worst single query over the ANN index, C03 mean over the exact scan; black dash: the mean-recall floor of each target. Hover a bar for the exact value.',
    ),
  );
};

/** Per-query max |Δscore| of each replay; from the failures' expected/actual when no series is recorded. */
function deltaSeries(r) {
  const out = [];
  r.cells.forEach((c, i) => {
    const q = c.queries || {};
    for (const s of [q.exact, q.index]) if (s) out.push({ label: `${c.target} ${s.check} (${s.scan})`, values: s.maxAbsScoreDelta, i, alpha: s.scan === 'exact' ? 0.9 : 0.45 });
    if (!q.exact && !q.index) {
      const vals = c.checks
        .flatMap((k) => k.failures)
        .filter((f) => f.kind === 'score' && typeof f.expected === 'number' && typeof f.actual === 'number')
        .map((f) => Math.abs(f.actual - f.expected));
      if (vals.length) out.push({ label: `${c.target} (score failures)`, values: vals, i, alpha: 0.7 });
    }
  });
  return out;
}

/** Histogram of |Δscore| in decades [10^e, 10^(e+1)), plus a bin for exactly 0; log-scale counts so a lone outlier shows. */
MM.deltaChart = (r) => {
  const series = deltaSeries(r);
  if (!series.length) return MM.section('plot-delta', 'Histogram of |Δscore|', h('p', null, 'No per-query score deltas in this report (C03 / C05 did not run).'));
  const all = series.flatMap((s) => s.values);
  const pos = all.filter((v) => v > 0);
  const lo = pos.length ? Math.floor(Math.log10(Math.min(...pos))) : -7;
  const hi = pos.length ? Math.floor(Math.log10(Math.max(...pos))) : -7;
  const hasZero = all.some((v) => v === 0);
  const labels = [...(hasZero ? ['0'] : []), ...Array.from({ length: hi - lo + 1 }, (_, j) => `[1e${lo + j}, 1e${lo + j + 1})`)];
  const bin = (v) => (v === 0 ? 0 : (hasZero ? 1 : 0) + Math.min(hi, Math.max(lo, Math.floor(Math.log10(v)))) - lo);
  const datasets = series.map((s) => {
    const counts = labels.map(() => 0);
    for (const v of s.values) counts[bin(v)]++;
    return { label: s.label, data: counts.map((n) => n || null), backgroundColor: MM.color(s.i, s.alpha), borderColor: MM.color(s.i), borderWidth: 1 };
  });
  const { box, canvas } = canvasBox('chart-delta', 260);
  MM.later.push(
    () =>
      new Chart(canvas, {
        type: 'bar',
        data: { labels, datasets },
        options: {
          scales: {
            x: { title: { display: true, text: '|Δscore| per query (max over its returned ids)' } },
            y: { type: 'logarithmic', min: 0.5, ticks: { callback: (v) => (/^[13]0*$/.test(String(v)) ? String(v) : '') }, title: { display: true, text: 'queries (log scale)' } },
          },
          plugins: { tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${ctx.raw} queries` } } },
        },
      }),
  );
  const tol = [...new Set(r.cells.map((c) => c.tolerances.scoreTolerance).filter((v) => v !== undefined))];
  return MM.section(
    'plot-delta',
    'Histogram of |Δscore|',
    box,
    h(
      'p',
      { class: 'note' },
      `Largest: `,
      h('b', { dataset: { mm: 'hist-max-delta', value: String(pos.length ? Math.max(...pos) : 0) } }, MM.fmt(pos.length ? Math.max(...pos) : 0)),
      `; scoreTolerance ${tol.map(MM.fmt).join(' / ')}. Deltas are canonical-score units against the float64 oracle.`,
    ),
  );
};

/** Rank changes: per replay, the worst queries (recall, first differing rank, Kendall τ) and a bump chart of one. */
MM.rankChanges = (r) => {
  const rows = [];
  r.cells.forEach((c, i) => {
    const q = c.queries || {};
    for (const s of [q.exact, q.index]) if (s) for (const w of s.worst) rows.push({ target: c.target, i, s, w });
  });
  const replays = r.cells.reduce((n, c) => n + (c.queries?.exact ? 1 : 0) + (c.queries?.index ? 1 : 0), 0);
  if (!rows.length)
    return MM.section(
      'plot-ranks',
      'Rank changes of the worst queries',
      h('p', { dataset: { mm: 'no-rank-change' } }, replays ? 'No query ranks differently from the oracle.' : 'No per-query replay in this report (C03 / C05 did not run).'),
    );
  const { box, canvas } = canvasBox('chart-ranks', 320);
  let chart;
  const caption = h('p', { class: 'note' });
  const show = (row) => {
    const { w } = row;
    const exp = new Map(w.expected.map(([id], j) => [id, j + 1]));
    const act = new Map(w.actual.map(([id], j) => [id, j + 1]));
    const out = w.k + 1;
    const ids = [...new Set([...exp.keys(), ...act.keys()])];
    const datasets = ids.map((id) => {
      const a = exp.get(id) ?? out;
      const b = act.get(id) ?? out;
      const moved = a !== b;
      return { label: id, data: [a, b], borderColor: moved ? MM.color(row.i) : '#cbd5e1', backgroundColor: moved ? MM.color(row.i) : '#cbd5e1', borderWidth: moved ? 2.5 : 1.5, pointRadius: 4 };
    });
    chart?.destroy();
    chart = new Chart(canvas, {
      type: 'line',
      data: { labels: ['oracle rank', `${row.target} rank`], datasets },
      options: {
        plugins: { legend: { display: false }, tooltip: { callbacks: { label: (ctx) => `${ctx.dataset.label}: ${ctx.raw === out ? 'not in top k' : 'rank ' + ctx.raw}` } } },
        scales: {
          y: {
            reverse: true,
            min: 0.5,
            max: out + 0.5,
            afterBuildTicks: (axis) => {
              axis.ticks = Array.from({ length: out }, (_, j) => ({ value: j + 1 }));
            },
            ticks: { callback: (v) => (v === out ? 'not in top k' : v) },
          },
        },
      },
    });
    caption.textContent = `${row.target} ${row.s.check} (${row.s.scan}) query ${w.queryId}: coloured lines are ids whose rank changed.`;
    for (const tr of table.querySelectorAll('tr.sel')) tr.classList.remove('sel');
    row.tr.classList.add('sel');
  };
  const table = h(
    'table',
    { class: 'matrix', id: 'worst-queries' },
    h('thead', null, h('tr', null, ...['target', 'replay', 'query', 'recall@k', 'first differing rank', 'Kendall τ', 'max |Δscore|'].map((t) => h('th', null, t)))),
    h(
      'tbody',
      null,
      ...rows.map(
        (row) =>
          (row.tr = h(
            'tr',
            { class: 'pick', onclick: () => show(row), dataset: { target: row.target, query: row.w.queryId } },
            h('td', null, row.target),
            h('td', null, `${row.s.check} ${row.s.scan}`),
            h('td', null, row.w.queryId),
            MM.num(row.w.recallAtK, 'worst-recall', row.target),
            MM.num(row.w.firstDifferingRank, 'worst-rank', row.target),
            MM.num(row.w.kendallTau, 'worst-tau', row.target),
            MM.num(row.w.maxAbsScoreDelta, 'worst-delta', row.target),
          )),
      ),
    ),
  );
  MM.later.push(() => show(rows[0]));
  return MM.section('plot-ranks', 'Rank changes of the worst queries', h('div', { class: 'scroll' }, table), h('p', { class: 'note' }, 'Click a row to plot it.'), box, caption);
};
