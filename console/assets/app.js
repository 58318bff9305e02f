// Puzzle Foundry console: the browser half. Routes on location.hash and draws
// everything from the JSON API described in docs/console-api.md. Three
// classic scripts share one global scope, loaded in order: lib.js (building
// blocks), app.js (state, the API, the session, the router, the overview and
// campaign list), players.js (the Play page and a player's round), views.js
// (one campaign, workers, the store, a puzzle, and the start).
//
// Security: every string from the API may be hostile, so the page never parses
// HTML: all DOM comes from lib.js's h() and s().
'use strict';
const LEVELS = ['easy', 'medium', 'hard', 'expert'];
const POLL_MS = 2000;
const PAGE_SIZE = 50;

let session = { role: 'none', login_required: false, csrf: '', player: '' };
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

// Replaces the page body; children as for h() (null skipped, arrays flattened).
function show(...children) { main.replaceChildren(); fill(main, null, children); }

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
// in #error (unless opts.quiet: the caller shows it in place) and throw
// ApiError; 401 switches to the login form.
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
    if (!opts.quiet) showError(msg, method);
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
  session = Object.assign({ role: 'none', login_required: false, csrf: '', player: '' },
    await api('GET', '/api/session'));
  renderHeader();
}
function renderHeader() {
  const role = document.getElementById('role');
  const known = ['admin', 'reader', 'none'].includes(session.role) ? session.role : 'none';
  setText(role, known === 'none' ? 'not logged in' : known);
  role.className = 'badge role-' + known;
  const player = document.getElementById('player-badge');
  setText(player, session.player ? 'Player: ' + session.player : '');
  player.hidden = !session.player || known === 'none';
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
// The routes (pattern, view), in ROUTES at the end of views.js: its views
// exist only once every script has loaded.
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
