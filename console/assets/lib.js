// Puzzle Foundry console: the page's building blocks (DOM without HTML
// parsing, number and time formatting, tables, charts, badges). app.js draws
// the pages with them; this file holds no state. Its declarations are
// global: the console's classic scripts share one scope.
//
// Security: every string from the API may be hostile, so nothing here parses
// HTML. All DOM is built with createElement/createElementNS, text goes in as
// text nodes and data only ever lands in attribute *values* (see h() below).
'use strict';
const SVG_NS = 'http://www.w3.org/2000/svg';
const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed',
  '#0891b2', '#db2777', '#4b5563', '#65a30d', '#9333ea'];

// ---------------------------------------------------------------- DOM ---
// h('a', {href: '#/x', class: 'c', onclick: fn}, 'text', child, [more]).
// Function values become listeners; null/false/undefined attrs are skipped.
function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}
function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}
function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
function setText(el, text) { el.textContent = text == null ? '' : String(text); }
// A message element that is hidden while empty.
function setMsg(el, text) { setText(el, text); el.hidden = !text; }
const enc = encodeURIComponent;

// --------------------------------------------------------- formatting ---
const isNum = (n) => n !== null && n !== undefined && n !== '' && !isNaN(Number(n));
function fmtInt(n) { return isNum(n) ? Math.round(Number(n)).toLocaleString('en-US') : '—'; }
function fmtNum(n, digits = 2) {
  if (!isNum(n)) return n == null || n === '' ? '—' : String(n);
  n = Number(n);
  return Number.isInteger(n) ? n.toLocaleString('en-US')
    : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
function fmtPct(x) { return isNum(x) ? (Number(x) * 100).toFixed(1) + '%' : '—'; }
function fmtRate(r) {
  if (!isNum(r)) return '—';
  const d = Number(r) >= 100 ? 0 : 1;
  return Number(r).toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) + '/s';
}
function fmtDuration(sec) {
  if (!isNum(sec)) return '—';
  sec = Math.max(0, Math.round(Number(sec)));
  if (sec < 60) return sec + ' s';
  const m = Math.floor(sec / 60), hr = Math.floor(m / 60), d = Math.floor(hr / 24);
  if (m < 60) return m + ' min' + (sec % 60 ? ' ' + (sec % 60) + ' s' : '');
  if (hr < 24) return hr + ' h' + (m % 60 ? ' ' + (m % 60) + ' min' : '');
  return d + ' d' + (hr % 24 ? ' ' + (hr % 24) + ' h' : '');
}
function fmtAgo(ms) {
  if (!isNum(ms) || Number(ms) <= 0) return 'never';
  return fmtDuration((Date.now() - Number(ms)) / 1000).replace(/ \d+ (s|min|h)$/, '') + ' ago';
}
function fmtTime(ms) {
  if (!isNum(ms) || Number(ms) <= 0) return '—';
  const d = new Date(Number(ms)), p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ` +
    `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
// A chart's time span, rounded to its largest unit: "last 15 min".
function fmtSpan(ms) {
  const sec = Math.max(0, Number(ms) || 0) / 1000;
  if (sec < 90) return `last ${Math.round(sec)} s`;
  if (sec < 90 * 60) return `last ${Math.round(sec / 60)} min`;
  if (sec < 48 * 3600) return `last ${Math.round(sec / 3600)} h`;
  return `last ${Math.round(sec / 86400)} d`;
}
// Any JSON value as display text (details, params, evidence).
function fmtValue(v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number') return fmtNum(v, 3);
  if (typeof v === 'object') return Array.isArray(v) && v.every((x) => typeof x !== 'object')
    ? v.join('; ') : JSON.stringify(v);
  return String(v);
}
const pct = (p) => Math.max(0, Math.min(100, Math.round((Number(p) || 0) * 100)));

// ----------------------------------------------------- shared widgets ---
function panel(title, ...children) {
  return h('section', { class: 'panel' }, title ? h('h2', {}, title) : null, ...children);
}
function table(attrs, headings, tbody) {
  return h('table', attrs, h('thead', {}, h('tr', {}, headings.map((t) => h('th', {}, t)))), tbody);
}
function emptyRow(cols, text) {
  return h('tr', { class: 'empty' }, h('td', { colspan: cols }, text));
}
function campaignLink(id) { return h('a', { class: 'campaign-link', href: '#/campaigns/' + enc(id) }, id); }
function puzzleLink(id) { return h('a', { class: 'puzzle-link', href: '#/puzzles/' + enc(id) }, id); }
function stateBadge(state) {
  const known = ['running', 'done', 'cancelled', 'exhausted', 'failed', 'probation', 'trusted',
    'quarantined'].includes(state) ? state : 'other';
  return h('span', { class: 'state state-' + known }, state);
}
// A .progress[data-progress] bar; set() takes 0..1.
function progressBar(id) {
  const bar = h('span', { class: 'progress-fill' });
  const label = h('span', { class: 'progress-label' });
  const el = h('div', { class: 'progress', id, 'data-progress': 0 }, bar, label);
  return {
    el,
    set(p) {
      const n = pct(p);
      el.setAttribute('data-progress', n);
      bar.style.width = n + '%'; // CSSOM, allowed by the CSP
      setText(label, n + '%');
    },
  };
}
// Keeps table rows keyed by id so polling updates them in place (elements a
// user or test holds stay valid) and keeps the server's order.
function syncRows(tbody, rows, items, make, empty) {
  const seen = new Set();
  for (const it of items) {
    const id = String(it.id);
    seen.add(id);
    let r = rows.get(id);
    if (r) r.update(it); else rows.set(id, r = make(it));
    tbody.append(r.tr);
  }
  for (const [id, r] of rows) if (!seen.has(id)) { r.tr.remove(); rows.delete(id); }
  if (items.length === 0) tbody.replaceChildren(empty);
  else empty.remove();
}

// Line chart into an existing <svg>. times: [ms]; series: [{name, values}].
function drawChart(svg, legend, times, series, spanMs) {
  const W = 640, H = 220, L = 52, R = 12, T = 14, B = 26;
  svg.replaceChildren();
  svg.setAttribute('data-points', times.length);
  let max = 0;
  for (const se of series) for (const v of se.values) max = Math.max(max, Number(v) || 0);
  const top = max > 0 ? max * 1.1 : 1;
  const t0 = times[0] || 0, span = (times[times.length - 1] - t0) || 1;
  const x = (i) => (L + (times.length > 1 ? (W - L - R) * (times[i] - t0) / span : 0)).toFixed(1);
  const y = (v) => (T + (H - T - B) * (1 - (Number(v) || 0) / top)).toFixed(1);
  svg.append(
    s('line', { class: 'grid', x1: L, y1: y(max || top), x2: W - R, y2: y(max || top) }),
    s('line', { class: 'axis', x1: L, y1: T, x2: L, y2: H - B }),
    s('line', { class: 'axis', x1: L, y1: H - B, x2: W - R, y2: H - B }),
    s('text', { class: 'axis-label', x: L - 6, y: Number(y(max || top)) + 4, 'text-anchor': 'end' }, fmtRate(max)),
    s('text', { class: 'axis-label', x: L - 6, y: H - B + 4, 'text-anchor': 'end' }, '0'),
    s('text', { class: 'axis-label', x: L, y: H - 6 }, fmtSpan(spanMs)),
    s('text', { class: 'axis-label', x: W - R, y: H - 6, 'text-anchor': 'end' }, 'now'));
  if (times.length === 0) {
    svg.append(s('text', { class: 'axis-label', x: W / 2, y: H / 2, 'text-anchor': 'middle' }, 'no data yet'));
  }
  legend.replaceChildren();
  series.forEach((se, k) => {
    const color = COLORS[k % COLORS.length];
    const pts = se.values.map((v, i) => x(i) + ',' + y(v)).join(' ');
    svg.append(s('polyline', { class: 'series', 'data-family': se.name, points: pts, stroke: color, fill: 'none' },
      s('title', {}, se.name)));
    const swatch = h('span', { class: 'swatch' });
    swatch.style.background = color;
    legend.append(h('li', {}, swatch, se.name));
  });
}
function chartSvg(id, label) {
  return s('svg', { id, class: 'chart', viewBox: '0 0 640 220', role: 'img', 'aria-label': label, 'data-points': 0 });
}
