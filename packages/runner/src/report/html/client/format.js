/*
 * memory-matrix report.html, browser side (1/4): number formatting, headline figures and a tiny
 * DOM builder. Everything the page shows is computed here from the embedded report.json; the
 * rules mirror packages/runner/src/report/figures.ts so the page, the console and report.md agree.
 */
'use strict';
const MM = (globalThis.MM = {});

/** figures.ts `fmt`: 4 decimals, an exponent below 1e-3, `–` for null. */
MM.fmt = (v) => {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  if (v !== 0 && Math.abs(v) < 1e-3) return v.toExponential(1);
  return Number.isInteger(v) ? String(v) : v.toFixed(4);
};

const checkOf = (cell, id) => cell.checks.find((c) => c.id === id && c.status !== 'skipped');

/** figures.ts `headlineRecallOf`: C05's figure (ANN), else C03's (exact), with where it comes from; null when neither has it. */
MM.headlineOf = (cell, key) => {
  for (const [id, from] of [
    ['C05', 'ANN, C05'],
    ['C03', 'exact, C03'],
  ]) {
    const v = checkOf(cell, id)?.figures[key];
    if (typeof v === 'number') return { value: v, from };
  }
  return null;
};
MM.headline = (cell, key) => MM.headlineOf(cell, key)?.value ?? null;
MM.recall = (cell) => MM.headline(cell, 'recallAtKMean');
MM.recallMin = (cell) => MM.headline(cell, 'recallAtKMin');
/** figures.ts `recallText`: `0.9812 (ANN, C05)`, `1 (exact, C03)`, `–`. */
MM.recallText = (r) => (r ? `${MM.fmt(r.value)} (${r.from})` : MM.fmt(null));

/** figures.ts `headlineMaxDelta`: max |Δscore| over the checks that measure it. */
MM.maxDelta = (cell) => {
  let max = null;
  for (const c of cell.checks) {
    for (const k of ['maxAbsScoreDelta', 'goldenMaxAbsDelta']) {
      const v = c.figures[k];
      if (typeof v === 'number') max = Math.max(max ?? 0, v);
    }
  }
  return max;
};

/** A figure of one check, or null. */
MM.figure = (cell, id, key) => {
  const v = checkOf(cell, id)?.figures[key];
  return typeof v === 'number' ? v : null;
};

/**
 * h('td', { class: 'x', title: '…', dataset: { mm: 'recall' } }, child, …): an element; string
 * children become text nodes (never HTML), null/false children are dropped.
 */
MM.h = (tag, attrs, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'onclick') el.addEventListener('click', v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
};

/** A recall cell (`MM.num` of figure `key`), its text saying where the figure comes from (`MM.recallText`; `data-from`). */
MM.recallCell = (cell, key, mm) => {
  const r = MM.headlineOf(cell, key);
  return MM.num(r ? r.value : null, mm, cell.target, r ? { from: r.from } : undefined, MM.recallText(r));
};

/** A number cell: the formatted value shown (or `text`), the exact report.json value in `data-value` and the tooltip. */
MM.num = (v, mm, target, extra, text) =>
  MM.h('td', { class: 'num', title: v === null ? 'n/a' : String(v), dataset: { mm, target: target ?? '', value: v === null ? '' : String(v), ...extra } }, text ?? MM.fmt(v));

MM.statusText = (s) => (s === 'passed' ? 'pass' : s === 'failed' ? 'FAIL' : s === 'skipped' ? 'skip' : s === 'known' ? 'KNOWN' : s);

/** A fixed palette, one colour per target in cell order. */
MM.PALETTE = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569', '#ea580c'];
MM.color = (i, alpha) => {
  const c = MM.PALETTE[i % MM.PALETTE.length];
  if (alpha === undefined) return c;
  const n = parseInt(c.slice(1), 16);
  return `rgba(${n >> 16},${(n >> 8) & 255},${n & 255},${alpha})`;
};

MM.section = (id, title, ...children) => MM.h('section', { id }, MM.h('h2', null, title), ...children);
