// Puzzle Foundry console: the browser half. Routes on location.hash and draws
// everything from the JSON API described in docs/console-api.md.
//
// Security: every string from the API may be hostile, so the page never parses
// HTML. All DOM is built with createElement/createElementNS, text goes in as
// text nodes and data only ever lands in attribute *values* (see h() below).
'use strict';
(() => {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const LEVELS = ['easy', 'medium', 'hard', 'expert'];
  const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed',
    '#0891b2', '#db2777', '#4b5563', '#65a30d', '#9333ea'];
  const POLL_MS = 2000;
  const PAGE_SIZE = 50;

  let session = { role: 'none', login_required: false, csrf: '' };
  // Bumped on every route change: async work started for an older route
  // checks it and drops its result instead of drawing over the new page.
  let routeSeq = 0;
  let pollTimer = null;
  // Which kind of request put the message in #error: a later successful GET
  // clears a GET's error (polling recovered) but not a failed action's.
  let errorFrom = '';
  // The store browser keeps its filter and page across visits.
  const storeState = { filter: {}, token: '', page: 1 };

  const main = document.getElementById('main');

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
  // Replaces the page body; children as for h() (null skipped, arrays flattened).
  function show(...children) { main.replaceChildren(); fill(main, null, children); }
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

  // ---------------------------------------------------------------- API ---
  class ApiError extends Error {
    constructor(status, message) { super(message); this.status = status; }
  }
  function showError(msg, from) {
    errorFrom = from;
    setMsg(document.getElementById('error'), msg);
  }
  function clearError() { errorFrom = ''; setMsg(document.getElementById('error'), ''); }

  // Every request goes through here. Non-2xx answers show their `error`
  // in #error and throw ApiError; 401 switches to the login form.
  async function api(method, path, body, opts = {}) {
    const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (method !== 'GET') {
      init.headers['Content-Type'] = 'application/json';
      init.headers['X-CSRF-Token'] = session.csrf || '';
      init.body = JSON.stringify(body || {});
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      showError('cannot reach the console', method);
      throw new ApiError(0, 'cannot reach the console');
    }
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const msg = data && typeof data.error === 'string' && data.error
        ? data.error : `request failed (HTTP ${res.status})`;
      showError(msg, method);
      if (res.status === 401 && !opts.isLogin && session.login_required) {
        session.role = 'none';
        showLogin();
      }
      throw new ApiError(res.status, msg);
    }
    if (method === 'GET' && errorFrom === 'GET') clearError();
    return data && typeof data === 'object' ? data : {};
  }
  // Runs an async step; ApiErrors are already on screen, real bugs go to the console.
  function guard(promise) {
    return promise.catch((e) => { if (!(e instanceof ApiError)) console.error(e); });
  }
  // Calls fn now and then every POLL_MS until the route changes.
  function poll(seq, fn) {
    const tick = async () => {
      if (seq !== routeSeq) return;
      await guard(fn());
      if (seq === routeSeq) pollTimer = setTimeout(tick, POLL_MS);
    };
    tick();
  }

  // ------------------------------------------------------------ session ---
  async function loadSession() {
    session = Object.assign({ role: 'none', login_required: false, csrf: '' },
      await api('GET', '/api/session'));
    renderHeader();
  }
  function renderHeader() {
    const role = document.getElementById('role');
    const known = ['admin', 'reader', 'none'].includes(session.role) ? session.role : 'none';
    setText(role, known === 'none' ? 'not logged in' : known);
    role.className = 'badge role-' + known;
    const loggedIn = session.login_required && session.role !== 'none';
    document.getElementById('session-actions').replaceChildren(loggedIn
      ? h('button', { id: 'logout', type: 'button', class: 'link-button', onclick: logout }, 'Log out')
      : '');
  }
  async function logout() {
    await guard(api('POST', '/api/logout', {}).then(loadSession).then(route));
  }
  function showLogin() {
    leaveRoute();
    renderHeader();
    const token = h('input', { id: 'login-token', type: 'password', autocomplete: 'current-password', required: true });
    const err = h('p', { id: 'login-error', class: 'form-error', role: 'alert', hidden: true });
    const button = h('button', { id: 'login-submit', type: 'submit' }, 'Log in');
    const form = h('form', { id: 'login-form', class: 'panel login' },
      h('h2', {}, 'Log in'),
      h('p', { class: 'muted' }, 'This console needs a coordinator access token.'),
      h('label', { class: 'field' }, h('span', { class: 'field-name' }, 'Token'), token),
      button, err);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      button.disabled = true;
      try {
        await api('POST', '/api/login', { token: token.value }, { isLogin: true });
        await loadSession();
        route();
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        setMsg(err, e.message);
      } finally { button.disabled = false; }
    });
    show(form);
    token.focus();
  }

  // ------------------------------------------------------------- router ---
  const ROUTES = [
    [/^\/overview$/, viewOverview],
    [/^\/campaigns$/, viewCampaigns],
    [/^\/campaigns\/(.+)$/, viewCampaign],
    [/^\/workers$/, viewWorkers],
    [/^\/store$/, viewStore],
    [/^\/puzzles\/(.+)$/, viewPuzzle],
  ];
  function leaveRoute() {
    routeSeq++;
    clearTimeout(pollTimer);
    pollTimer = null;
  }
  function route() {
    leaveRoute();
    clearError();
    if (session.login_required && session.role === 'none') return showLogin();
    const path = location.hash.replace(/^#/, '') || '/overview';
    for (const a of document.querySelectorAll('.nav a')) {
      a.classList.toggle('active', path.startsWith(a.getAttribute('href').slice(1)));
    }
    for (const [re, view] of ROUTES) {
      const m = re.exec(path);
      if (!m) continue;
      let arg = m[1];
      try { arg = arg && decodeURIComponent(arg); } catch (e) { /* keep it raw */ }
      return view(routeSeq, arg);
    }
    show(panel('Not found', h('p', {}, 'There is no page at ', h('code', {}, path), '. '),
      h('a', { href: '#/overview' }, 'Go to the overview')));
  }

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

  // ----------------------------------------------------------- overview ---
  function viewOverview(seq) {
    const chart = chartSvg('rate-chart', 'stored puzzles per second, by family');
    const legend = h('ul', { class: 'legend' });
    const tbody = h('tbody'), rows = new Map(), empty = emptyRow(7, 'No campaign is running.');
    const alive = h('span', { id: 'workers-alive', class: 'big' }, '—');
    const workersMore = h('span', { class: 'muted' });
    const total = h('span', { id: 'store-total', class: 'big' }, '—');
    const storeMore = h('span', { class: 'muted' });
    show(
      h('div', { class: 'stats' },
        h('div', { class: 'stat panel' }, h('div', { class: 'stat-name' }, 'Workers alive'), alive, workersMore),
        h('div', { class: 'stat panel' }, h('div', { class: 'stat-name' }, 'Puzzles in store'), total, storeMore)),
      panel('Stored puzzles per second', chart, legend),
      panel('Running campaigns', table({ id: 'running-campaigns', class: 'data' },
        ['Campaign', 'Family', 'Stored / count', 'Progress', 'Rate', 'ETA', 'Level'], tbody)));
    poll(seq, async () => {
      const d = await api('GET', '/api/overview');
      if (seq !== routeSeq) return;
      const history = Array.isArray(d.history) ? d.history : [];
      const families = Array.isArray(d.families) ? d.families : [];
      const span = history.length ? (Number(d.now_ms) || history[history.length - 1].t_ms) - history[0].t_ms : 15 * 60000;
      drawChart(chart, legend, history.map((p) => p.t_ms),
        families.map((f) => ({ name: f, values: history.map((p) => (p.rates || {})[f] || 0) })), span);
      syncRows(tbody, rows, Array.isArray(d.campaigns) ? d.campaigns : [], overviewRow, empty);
      const w = d.workers || {}, st = d.store || {};
      setText(alive, fmtInt(w.alive));
      setText(workersMore, `${fmtInt(w.threads)} threads · ${fmtInt(w.quarantined)} quarantined`);
      setText(total, fmtInt(st.puzzles));
      setText(storeMore, `${fmtInt(st.plays_recorded)} plays recorded`);
    });
  }
  function overviewRow(c) {
    const td = () => h('td'), cells = { family: td(), stored: h('td', { class: 'num' }),
      rate: h('td', { class: 'num' }), eta: h('td', { class: 'eta' }), level: td() };
    const bar = progressBar();
    const tr = h('tr', { class: 'campaign-row', 'data-id': c.id }, h('td', {}, campaignLink(c.id)),
      cells.family, cells.stored, h('td', {}, bar.el), cells.rate, cells.eta, cells.level);
    const update = (c) => {
      setText(cells.family, c.family);
      setText(cells.stored, `${fmtInt(c.stored)} / ${fmtInt(c.count)}`);
      bar.set(c.progress);
      setText(cells.rate, fmtRate(c.rate));
      setText(cells.eta, c.eta_seconds == null ? '—' : fmtDuration(c.eta_seconds));
      setText(cells.level, c.level || 'any');
    };
    update(c);
    return { tr, update };
  }

  // ---------------------------------------------------------- campaigns ---
  function viewCampaigns(seq) {
    const tbody = h('tbody', {}, emptyRow(8, 'Loading…'));
    show(
      session.role === 'admin' ? newCampaignForm(seq) : null,
      panel('Campaigns', table({ id: 'campaign-list', class: 'data' },
        ['Campaign', 'Family', 'State', 'Level', 'Stored / count', 'Progress', 'Rate', 'Created'], tbody)));
    guard(api('GET', '/api/campaigns').then((d) => {
      if (seq !== routeSeq) return;
      const list = Array.isArray(d.campaigns) ? d.campaigns : [];
      tbody.replaceChildren(...list.map((c) => {
        const bar = progressBar();
        bar.set(c.progress);
        return h('tr', { class: 'campaign-row', 'data-id': c.id },
          h('td', {}, campaignLink(c.id)), h('td', {}, c.family), h('td', {}, stateBadge(c.state)),
          h('td', {}, c.level || 'any'), h('td', { class: 'num' }, `${fmtInt(c.stored)} / ${fmtInt(c.count)}`),
          h('td', {}, bar.el), h('td', { class: 'num' }, fmtRate(c.rate)), h('td', {}, fmtTime(c.created_ms)));
      }));
      if (!list.length) tbody.replaceChildren(emptyRow(8, 'No campaigns yet.'));
    }));
  }

  function numberInput(id, value, attrs) {
    return h('input', Object.assign({ id, type: 'number', value, inputmode: 'numeric' }, attrs));
  }
  function field(name, input, title) {
    return h('label', { class: 'field', title: title || null }, h('span', { class: 'field-name' }, name), input);
  }
  // Admins only: the caller leaves it out of the DOM entirely for readers.
  function newCampaignForm(seq) {
    const family = h('select', { id: 'nc-family', required: true });
    const summary = h('p', { class: 'muted family-summary' });
    const params = h('div', { class: 'field-row', id: 'nc-params' });
    const level = h('select', { id: 'nc-level' }, ['any', ...LEVELS].map((l) => h('option', { value: l }, l)));
    const count = numberInput('nc-count', 1000, { step: 1 });
    const seed = numberInput('nc-seed', 1, { step: 1 });
    const priority = numberInput('nc-priority', 0, { step: 1 });
    const minScore = numberInput('nc-min-score', '', { step: 0.01, placeholder: 'none' });
    const maxScore = numberInput('nc-max-score', '', { step: 0.01, placeholder: 'none' });
    const err = h('p', { id: 'nc-error', class: 'form-error', role: 'alert', hidden: true });
    const submit = h('button', { id: 'nc-submit', type: 'submit' }, 'Start campaign');
    const goals = { count, seed, priority, level, min_score: minScore, max_score: maxScore };
    const form = h('form', { id: 'new-campaign', class: 'panel' }, h('h2', {}, 'New campaign'),
      h('div', { class: 'field-row' }, field('Family', family), field('Count', count), field('Seed', seed),
        field('Level', level), field('Priority', priority), field('Min score', minScore), field('Max score', maxScore)),
      summary, h('h3', {}, 'Family parameters'), params, h('div', { class: 'actions' }, submit), err);
    let families = [];

    const buildParams = () => {
      const f = families.find((x) => x.name === family.value) || { params: [] };
      setText(summary, f.summary || '');
      const list = Array.isArray(f.params) ? f.params : [];
      params.replaceChildren(...list.map(paramInput));
      if (!list.length) params.append(h('p', { class: 'muted' }, 'This family has no parameters.'));
    };
    family.addEventListener('change', buildParams);

    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      setMsg(err, '');
      const body = { family: family.value, count: count.value, seed: seed.value, priority: priority.value,
        // "any" means no level goal: sent as "" so the server's default applies.
        level: level.value === 'any' ? '' : level.value,
        min_score: minScore.value, max_score: maxScore.value, params: {} };
      for (const el of params.querySelectorAll('[data-param]')) {
        if (el.value !== '') body.params[el.getAttribute('data-param')] = el.value;
      }
      submit.disabled = true;
      try {
        const d = await api('POST', '/api/campaigns', body);
        if (d.campaign && d.campaign.id != null) location.hash = '#/campaigns/' + enc(d.campaign.id);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        setMsg(err, e.message);
      } finally { submit.disabled = false; }
    });

    guard(api('GET', '/api/families').then((d) => {
      if (seq !== routeSeq) return;
      families = Array.isArray(d.families) ? d.families : [];
      family.replaceChildren(...families.map((f) => h('option', { value: f.name, title: f.summary || null }, f.name)));
      for (const g of Array.isArray(d.goal_params) ? d.goal_params : []) {
        const el = Object.prototype.hasOwnProperty.call(goals, g.key) ? goals[g.key] : null;
        if (el && g.help) el.closest('label').title = g.help;
      }
      buildParams();
    }));
    return form;
  }
  // One input per family parameter; a select when `allowed` is a choice.
  function paramInput(p) {
    const allowed = String(p.allowed == null ? '' : p.allowed);
    const def = p.default == null ? '' : String(p.default);
    let input;
    if (allowed.includes('|')) {
      input = h('select', { 'data-param': p.key, title: p.help || null },
        allowed.split('|').map((v) => h('option', { value: v, selected: v === def }, v)));
    } else {
      input = h('input', { type: 'text', 'data-param': p.key, value: def, placeholder: def, title: p.help || null });
    }
    return h('label', { class: 'field', title: p.help || null },
      h('span', { class: 'field-name' }, p.key, allowed && !allowed.includes('|') ? h('small', {}, ' (' + allowed + ')') : null),
      input);
  }

  // ----------------------------------------------------------- campaign ---
  const CAMPAIGN_FIELDS = [
    ['state', 'State'], ['family', 'Family'], ['level', 'Level'], ['count', 'Count'],
    ['stored', 'Stored'], ['candidates', 'Candidates'], ['accepted', 'Accepted'], ['rejected', 'Rejected'],
    ['duplicates', 'Duplicates'], ['invalid', 'Invalid'], ['acceptance_rate', 'Acceptance'],
    ['duplicate_rate', 'Duplicate rate'], ['rate', 'Rate'], ['eta', 'ETA'], ['seed', 'Seed'],
    ['priority', 'Priority'], ['created', 'Created'], ['finished', 'Finished'], ['params', 'Parameters'],
    ['message', 'Message'],
  ];
  function campaignValue(c, key) {
    switch (key) {
      case 'acceptance_rate': case 'duplicate_rate': return fmtPct(c[key]);
      case 'rate': return fmtRate(c.rate);
      case 'eta': return c.eta_seconds == null ? '—' : fmtDuration(c.eta_seconds);
      case 'created': return fmtTime(c.created_ms);
      case 'finished': return fmtTime(c.finished_ms);
      case 'level': return c.level || 'any';
      case 'params': return Object.entries(c.params || {}).map(([k, v]) => `${k}=${fmtValue(v)}`).join(', ') || '—';
      case 'state': case 'family': case 'message': return c[key] || '—';
      default: return fmtInt(c[key]);
    }
  }
  function viewCampaign(seq, id) {
    const fields = {};
    const grid = h('dl', { class: 'kv' }, CAMPAIGN_FIELDS.map(([key, name]) =>
      [h('dt', {}, name), fields[key] = h('dd', { 'data-field': key }, '—')]));
    const bar = progressBar('campaign-progress');
    const chart = chartSvg('campaign-chart', 'stored puzzles per second over time');
    const legend = h('ul', { class: 'legend' });
    const actions = h('div', { class: 'actions' });
    const detail = h('section', { id: 'campaign-detail', class: 'panel', 'data-id': id },
      h('h2', {}, 'Campaign ', h('code', {}, id)), bar.el, actions, grid);
    show(h('p', {}, h('a', { href: '#/campaigns' }, '← all campaigns')),
      detail, panel('Stored per second', chart, legend));
    let history = [], cancel = null;

    const update = (c) => {
      for (const [key] of CAMPAIGN_FIELDS) {
        setText(fields[key], campaignValue(c, key));
        if (isNum(c[key])) fields[key].setAttribute('data-value', c[key]);
      }
      bar.set(c.progress);
      const times = history.map((p) => p.t_ms);
      drawChart(chart, legend, times, [{ name: c.family || 'rate', values: history.map((p) => p.rate) }],
        times.length > 1 ? times[times.length - 1] - times[0] : 0);
      // The cancel button exists only for admins while the campaign runs.
      const want = session.role === 'admin' && c.state === 'running';
      if (want && !cancel) actions.append(cancel = h('button', { id: 'campaign-cancel', type: 'button', class: 'danger', onclick: doCancel }, 'Cancel campaign'));
      if (!want && cancel) { cancel.remove(); cancel = null; }
    };
    const doCancel = async () => {
      cancel.disabled = true;
      try {
        const d = await api('POST', '/api/campaigns/' + enc(id) + '/cancel', {});
        if (seq === routeSeq && d.campaign) update(d.campaign);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
      } finally { if (cancel) cancel.disabled = false; }
    };
    poll(seq, async () => {
      const d = await api('GET', '/api/campaigns/' + enc(id));
      if (seq !== routeSeq || !d.campaign) return;
      history = Array.isArray(d.history) ? d.history : [];
      update(d.campaign);
    });
  }

  // ------------------------------------------------------------ workers ---
  function viewWorkers(seq) {
    const tbody = h('tbody', {}, emptyRow(10, 'Loading…'));
    show(panel('Workers', table({ id: 'worker-table', class: 'data' },
      ['Worker', 'State', 'Alive', 'Threads', 'Leases', 'Last heartbeat', 'Candidates/s', 'Puzzles/s',
        'Verify jobs', 'Evidence'], tbody)));
    guard(api('GET', '/api/workers').then((d) => {
      if (seq !== routeSeq) return;
      const list = Array.isArray(d.workers) ? d.workers : [];
      tbody.replaceChildren(...list.map((w) => h('tr', { class: 'worker-row', 'data-id': w.id },
        h('td', {}, h('code', {}, w.id)), h('td', {}, stateBadge(w.state)),
        h('td', {}, h('span', { class: w.alive ? 'alive' : 'gone' }, w.alive ? 'alive' : 'gone')),
        h('td', { class: 'num' }, fmtInt(w.threads)), h('td', { class: 'num' }, fmtInt(w.leases)),
        h('td', { title: fmtTime(w.last_seen_ms) }, fmtAgo(w.last_seen_ms)),
        h('td', { class: 'num' }, fmtNum(w.candidates_per_second, 1)),
        h('td', { class: 'num' }, fmtNum(w.puzzles_per_second, 2)),
        h('td', { class: 'num' }, fmtInt(w.verify_jobs)),
        h('td', { class: 'evidence' }, w.evidence == null || w.evidence === '' ? '—' : fmtValue(w.evidence)))));
      if (!list.length) tbody.replaceChildren(emptyRow(10, 'No worker has registered.'));
    }));
  }

  // -------------------------------------------------------------- store ---
  function viewStore(seq) {
    const levelBody = h('tbody', {}, emptyRow(6, 'Loading…'));
    const levelHead = h('thead');
    const famSel = h('select', { id: 'f-family' }, h('option', { value: '' }, 'any'));
    const lvlSel = h('select', { id: 'f-level' }, h('option', { value: '' }, 'any'),
      LEVELS.map((l) => h('option', { value: l }, l)));
    const minS = h('input', { id: 'f-min-score', type: 'number', step: '0.01' });
    const maxS = h('input', { id: 'f-max-score', type: 'number', step: '0.01' });
    const camp = h('input', { id: 'f-campaign', type: 'text', placeholder: 'campaign id' });
    const form = h('form', { id: 'browse-filter', class: 'field-row' },
      field('Family', famSel), field('Level', lvlSel), field('Min score', minS), field('Max score', maxS),
      field('Campaign', camp), h('div', { class: 'actions' }, h('button', { id: 'f-apply', type: 'submit' }, 'Apply')));
    const results = h('tbody');
    const pageLabel = h('span', { class: 'page-label' });
    const pager = h('div', { class: 'pager' }, pageLabel);
    const inputs = { family: famSel, level: lvlSel, min_score: minS, max_score: maxS, campaign: camp };
    for (const [k, el] of Object.entries(inputs)) el.value = storeState.filter[k] || '';

    show(
      panel('Puzzles by level', h('table', { id: 'level-table', class: 'data' }, levelHead, levelBody)),
      panel('Browse', form, table({ id: 'browse-results', class: 'data' },
        ['Puzzle', 'Family', 'Level', 'Score', 'Solved / failed', 'Created'], results), pager));

    const query = async (token, page) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(storeState.filter)) if (v !== '') q.set(k, v);
      if (token) q.set('page_token', token);
      q.set('page_size', String(PAGE_SIZE));
      const d = await api('GET', '/api/store/query?' + q.toString());
      if (seq !== routeSeq) return;
      storeState.token = token;
      storeState.page = page;
      const list = Array.isArray(d.puzzles) ? d.puzzles : [];
      results.replaceChildren(...list.map(puzzleRow));
      if (!list.length) results.replaceChildren(emptyRow(6, 'No puzzle matches.'));
      setText(pageLabel, 'page ' + page);
      const next = d.next_page_token ? String(d.next_page_token) : '';
      pager.replaceChildren(pageLabel, next
        ? h('button', { id: 'browse-next', type: 'button', onclick: () => guard(query(next, page + 1)) }, 'Next page →')
        : '');
    };
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      for (const [k, el] of Object.entries(inputs)) storeState.filter[k] = el.value.trim();
      guard(query('', 1));
    });
    guard(query(storeState.token, storeState.page));

    guard(api('GET', '/api/store/levels').then((d) => {
      if (seq !== routeSeq) return;
      const levels = Array.isArray(d.levels) ? d.levels : LEVELS;
      const rows = Array.isArray(d.rows) ? d.rows : [];
      levelHead.replaceChildren(h('tr', {}, h('th', {}, 'Family'), levels.map((l) => h('th', { class: 'num' }, l)),
        h('th', { class: 'num' }, 'Total')));
      levelBody.replaceChildren(...rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.family),
        levels.map((l) => h('td', { class: 'num', 'data-family': r.family, 'data-level': l }, fmtInt((r.counts || {})[l] || 0))),
        h('td', { class: 'num total', 'data-family': r.family, 'data-total': '' }, fmtInt(r.total)))));
      levelBody.append(h('tr', { class: 'all' }, h('th', { scope: 'row' }, 'All families'),
        levels.map(() => h('td')), h('td', { class: 'num total', id: 'level-total' }, fmtInt(d.total))));
    }));
    guard(api('GET', '/api/families').then((d) => {
      if (seq !== routeSeq) return;
      const names = (Array.isArray(d.families) ? d.families : []).map((f) => f.name);
      famSel.replaceChildren(h('option', { value: '' }, 'any'), ...names.map((n) => h('option', { value: n }, n)));
      famSel.value = storeState.filter.family || '';
    }));
  }
  function puzzleRow(p) {
    return h('tr', { class: 'puzzle-row', 'data-id': p.id }, h('td', {}, puzzleLink(p.id)),
      h('td', {}, p.family), h('td', {}, p.level || '—'),
      h('td', { class: 'num' }, isNum(p.score) ? Number(p.score).toFixed(3) : '—'),
      h('td', { class: 'num' }, `${fmtInt(p.solved)} / ${fmtInt(p.failed)}`),
      h('td', {}, fmtTime(p.created_ms)));
  }

  // ------------------------------------------------------------- puzzle ---
  function viewPuzzle(seq, id) {
    const opened = performance.now(); // "seconds" of a play counts from here
    show(h('p', { class: 'muted' }, 'Loading puzzle…'));
    guard(api('GET', '/api/puzzles/' + enc(id)).then((p) => {
      if (seq === routeSeq) show(puzzlePage(seq, id, p, opened));
    }).catch((e) => {
      if (seq === routeSeq && e instanceof ApiError) show(panel('Puzzle unavailable', h('p', {}, e.message)));
      throw e;
    }));
  }
  function kvItems(pairs) {
    return pairs.map(([key, name, value]) => [h('dt', {}, name), h('dd', { 'data-field': key }, value)]).flat();
  }
  function kvList(attrs, pairs) { return h('dl', Object.assign({ class: 'kv' }, attrs), kvItems(pairs)); }
  function playsList(plays) {
    const pl = plays || {};
    return [['solved', 'Solved', fmtInt(pl.solved)], ['failed', 'Failed', fmtInt(pl.failed)],
      ['mean', 'Mean solve time', isNum(pl.mean_solve_seconds) ? fmtNum(pl.mean_solve_seconds, 1) + ' s' : '—']];
  }
  function observedList(obs) {
    const o = obs || {};
    return [['score', 'Score', isNum(o.score) ? Number(o.score).toFixed(3) : '—'], ['level', 'Level', o.level || '—'],
      ['plays', 'Plays', fmtInt(o.plays)], ['solve_rate', 'Solve rate', fmtPct(o.solve_rate)]];
  }
  function puzzlePage(seq, id, p, opened) {
    const plays = kvList({ id: 'puzzle-plays' }, playsList(p.plays));
    const observed = kvList({ id: 'puzzle-observed' }, observedList(p.observed));
    const details = h('table', { id: 'puzzle-details', class: 'data compact' }, h('tbody', {},
      Object.entries(p.details || {}).map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, fmtValue(v))))));
    const answer = h('textarea', { id: 'play-answer', rows: 4, spellcheck: 'false', placeholder: 'Your answer' });
    const submit = h('button', { id: 'play-submit', type: 'submit' }, 'Submit answer');
    const result = h('p', { id: 'play-result', role: 'status' });
    const solution = h('pre', { id: 'solution-text', class: 'text', hidden: true });
    const reveal = h('button', { id: 'reveal-solution', type: 'button', class: 'secondary' }, 'Reveal solution');
    const form = h('form', { id: 'play-form' }, h('p', { id: 'play-prompt', class: 'prompt' }, p.prompt || ''),
      answer, h('div', { class: 'actions' }, submit), result);

    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      submit.disabled = true;
      const seconds = Math.round((performance.now() - opened) / 100) / 10;
      try {
        const d = await api('POST', '/api/puzzles/' + enc(id) + '/play', { answer: answer.value, seconds });
        if (seq !== routeSeq) return;
        setText(result, d.correct ? 'Right!' : 'Wrong');
        result.className = d.correct ? 'right' : 'wrong';
        plays.replaceChildren(...kvItems(playsList(d.plays || p.plays)));
        observed.replaceChildren(...kvItems(observedList(d.observed || p.observed)));
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        setText(result, e.message);
        result.className = 'error';
      } finally { submit.disabled = false; }
    });
    reveal.addEventListener('click', () => guard(api('GET', '/api/puzzles/' + enc(id) + '/solution').then((d) => {
      if (seq !== routeSeq) return;
      setText(solution, d.answer);
      solution.hidden = false;
    })));

    const meta = [['family', 'Family', p.family || '—'], ['level', 'Level', p.level || '—'],
      ['score', 'Score', isNum(p.score) ? Number(p.score).toFixed(3) : '—'],
      ['campaign', 'Campaign', p.campaign_id ? campaignLink(p.campaign_id) : '—'],
      ['seed', 'Seed', fmtValue(p.seed)], ['index', 'Index', fmtValue(p.index)],
      ['created', 'Created', fmtTime(p.created_ms)],
      ['params', 'Parameters', Object.entries(p.params || {}).map(([k, v]) => `${k}=${fmtValue(v)}`).join(', ') || '—']];
    return h('section', { id: 'puzzle-view', 'data-id': p.id == null ? id : p.id },
      h('p', {}, h('a', { href: '#/store' }, '← store')),
      h('div', { class: 'puzzle-grid' },
        h('div', { class: 'panel' }, h('h2', {}, 'Puzzle ', h('code', {}, p.id == null ? id : p.id)),
          h('img', { id: 'puzzle-svg', src: '/api/puzzles/' + enc(id) + '/svg', alt: 'The puzzle’s drawing' }),
          h('pre', { id: 'puzzle-text', class: 'text' }, p.text || '')),
        h('div', {},
          panel('Play', form),
          panel('About', kvList({ id: 'puzzle-meta' }, meta)),
          panel('Difficulty', details),
          h('div', { class: 'panel' }, h('h2', {}, 'Plays'), plays, h('h3', {}, 'Observed difficulty'), observed),
          panel('Solution', reveal, solution))));
  }

  // -------------------------------------------------------------- start ---
  async function start() {
    if (!location.hash) history.replaceState(null, '', '#/overview');
    try {
      await loadSession();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      show(panel('The console could not start', h('p', {}, e.message),
        h('button', { type: 'button', onclick: () => location.reload() }, 'Try again')));
      return;
    }
    window.addEventListener('hashchange', route);
    route();
  }
  start();
})();
