// Puzzle Foundry console: the views of one campaign, the workers, the store
// and a puzzle, and the start. Loaded last, after lib.js, app.js and
// players.js, whose declarations it uses (classic scripts share one global
// scope).
'use strict';

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
// The puzzle's drawing and text: the left column of a puzzle page.
function puzzleDrawing(id, p) {
  const shownId = p.id == null ? id : p.id;
  return h('div', { class: 'panel' }, h('h2', {}, 'Puzzle ', h('code', {}, shownId)),
    h('img', { id: 'puzzle-svg', src: '/api/puzzles/' + enc(id) + '/svg', alt: 'The puzzle’s drawing' }),
    h('pre', { id: 'puzzle-text', class: 'text' }, p.text || ''));
}
// The About, Difficulty and Plays panels; update() shows a play's new counts.
function puzzleInfo(p) {
  const plays = kvList({ id: 'puzzle-plays' }, playsList(p.plays));
  const observed = kvList({ id: 'puzzle-observed' }, observedList(p.observed));
  const details = h('table', { id: 'puzzle-details', class: 'data compact' }, h('tbody', {},
    Object.entries(p.details || {}).map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, fmtValue(v))))));
  const meta = [['family', 'Family', p.family || '—'], ['level', 'Level', p.level || '—'],
    ['score', 'Score', isNum(p.score) ? Number(p.score).toFixed(3) : '—'],
    ['campaign', 'Campaign', p.campaign_id ? campaignLink(p.campaign_id) : '—'],
    ['seed', 'Seed', fmtValue(p.seed)], ['index', 'Index', fmtValue(p.index)],
    ['created', 'Created', fmtTime(p.created_ms)],
    ['params', 'Parameters', Object.entries(p.params || {}).map(([k, v]) => `${k}=${fmtValue(v)}`).join(', ') || '—']];
  return {
    panels: [panel('About', kvList({ id: 'puzzle-meta' }, meta)), panel('Difficulty', details),
      h('div', { class: 'panel' }, h('h2', {}, 'Plays'), plays, h('h3', {}, 'Observed difficulty'), observed)],
    update(newPlays, newObserved) {
      plays.replaceChildren(...kvItems(playsList(newPlays || p.plays)));
      observed.replaceChildren(...kvItems(observedList(newObserved || p.observed)));
    },
  };
}
function puzzlePage(seq, id, p, opened) {
  const info = puzzleInfo(p);
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
      info.update(d.plays, d.observed);
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

  return h('section', { id: 'puzzle-view', 'data-id': p.id == null ? id : p.id },
    h('p', {}, h('a', { href: '#/store' }, '← store')),
    h('div', { class: 'puzzle-grid' }, puzzleDrawing(id, p),
      h('div', {},
        panel('Play', h('p', { class: 'muted' }, 'Unrated: to play as a player, take a puzzle on the ',
          h('a', { href: '#/play' }, 'Play'), ' page.'), form),
        info.panels,
        panel('Solution', reveal, solution))));
}

// ------------------------------------------------------------- routes ---
const ROUTES = [
  [/^\/overview$/, viewOverview],
  [/^\/campaigns$/, viewCampaigns],
  [/^\/campaigns\/(.+)$/, viewCampaign],
  [/^\/workers$/, viewWorkers],
  [/^\/store$/, viewStore],
  [/^\/puzzles\/(.+)$/, viewPuzzle],
  [/^\/play$/, viewPlay],
  [/^\/play\/(.+)$/, viewRound],
];

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
