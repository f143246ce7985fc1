/*
 * memory-matrix report.html, browser side: C31's backend × filter-operator table
 * (report.filterOperators, report/operators.ts), the same cells as report.md's.
 */
const { h } = MM;

/** The cell text of one target × operator entry, as report.md's `operatorGlyph`. */
MM.operatorGlyph = (e) => {
  if (!e) return '–';
  if (e.status === 'fail') return `FAIL ${e.fail}/${e.pass + e.fail}`;
  if (e.status === 'pass') return `pass ${e.pass}${e.unsupported ? ` (+${e.unsupported} unsupported)` : ''}`;
  return 'unsupported';
};

/** Operator × target: pass / FAIL / unsupported with the case counts; no section when no cell recorded C31. */
MM.operatorTable = (r) => {
  const t = r.filterOperators;
  if (!t || !t.targets.length) return null;
  const cls = { pass: 'st-passed', fail: 'st-failed', unsupported: 'st-skipped' };
  const table = h(
    'table',
    { class: 'matrix', id: 'filter-operators' },
    h('thead', null, h('tr', null, h('th', null, 'operator'), ...t.targets.map((x) => h('th', null, x.target)))),
    h(
      'tbody',
      null,
      ...t.operators.map((op) =>
        h(
          'tr',
          null,
          h('th', { scope: 'row' }, op),
          ...t.targets.map((x) => {
            const e = x.entries[op];
            if (!e) return h('td', { class: 'st-none' }, '–');
            const title = `${e.pass} passed, ${e.fail} failed, ${e.unsupported} unsupported${x.reason ? `; ${x.reason}` : ''}`;
            return h('td', { class: cls[e.status] || '', title, dataset: { mm: 'operator', target: x.target, operator: op, status: e.status } }, MM.operatorGlyph(e));
          }),
        ),
      ),
    ),
  );
  const reasons = t.targets.filter((x) => x.reason).map((x) => h('p', { class: 'note' }, `${x.target}: ${x.reason}`));
  return MM.section(
    'filter-operators-section',
    'Filter operators (C31: target × operator)',
    h('p', { class: 'note' }, 'A case counts for every operator it uses: FAIL f/n = cases failed of those run; unsupported = no case using it could run.'),
    h('div', { class: 'scroll' }, table),
    ...reasons,
  );
};
