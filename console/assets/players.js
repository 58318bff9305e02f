// Puzzle Foundry console: the Play page (#/play: the session's player, Next
// puzzle, the puzzle of the day, ratings, this session's plays) and a
// player's round (#/play/ID: a served puzzle, answered once, judged and
// rated by the store). Loaded after lib.js and app.js, before views.js,
// whose puzzle panels a round reuses (classic scripts share one scope).
'use strict';
// lichess's choices: the puzzle aimed at is the player's rating plus this.
const OFFSETS = [[-600, 'Much easier (−600)'], [-300, 'Easier (−300)'], [0, 'At my rating'],
  [300, 'Harder (+300)'], [600, 'Much harder (+600)']];
// The family and difficulty chosen last, kept while the page is open.
const playState = { family: '', offset: '0' };

function fmtRating(r) { return isNum(r) ? String(Math.round(Number(r))) : '—'; }
function fmtChange(d) {
  const n = Math.round(Number(d) || 0);
  return n > 0 ? '+' + n : n < 0 ? '−' + -n : '±0';
}
function offsetName(o) {
  const found = OFFSETS.find(([v]) => v === Number(o));
  return found ? found[1].toLowerCase() : `offset ${fmtChange(o)}`;
}
function servedAs(r) {
  return r.source === 'daily' ? 'puzzle of the day' + (r.date ? ' ' + r.date : '') : 'next puzzle, ' + offsetName(r.offset);
}
function resultBadge(solved) {
  return h('span', { class: 'state ' + (solved ? 'state-trusted' : 'state-failed') }, solved ? 'solved' : 'not solved');
}
function changeCell(e) {
  if (!e.rated) return h('td', { class: 'num muted', title: 'not rated: not the player’s first attempt at a puzzle served to them' }, 'unrated');
  const d = Number(e.rating_change) || 0;
  return h('td', { class: 'num ' + (d > 0 ? 'up' : d < 0 ? 'down' : ''), 'data-field': 'change' }, fmtChange(d));
}
// Takes the next puzzle of `family` for the session's player and opens it.
async function takeNext(family, offset, errEl) {
  if (errEl) setMsg(errEl, '');
  try {
    const d = await api('POST', '/api/player/next', { family, offset: Number(offset) }, { quiet: !!errEl });
    if (d.round) location.hash = '#/play/' + enc(d.round.puzzle_id);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (errEl) setMsg(errEl, e.message);
  }
}

// --------------------------------------------------------------- play ---
function viewPlay(seq) {
  const name = h('input', { id: 'player-name', type: 'text', maxlength: 128, autocomplete: 'nickname',
    placeholder: 'a name', value: session.player || '' });
  const nameErr = h('p', { id: 'player-error', class: 'form-error', role: 'alert', hidden: true });
  const current = h('p', { id: 'player-current' });
  const setBtn = h('button', { id: 'player-set', type: 'submit' }, 'Play as');
  const playerForm = h('form', { id: 'player-form', class: 'field-row' },
    field('Player name', name), h('div', { class: 'actions' }, setBtn));
  const family = h('select', { id: 'next-family' });
  const offset = h('select', { id: 'next-offset' }, OFFSETS.map(([v, label]) => h('option', { value: v }, label)));
  offset.value = playState.offset;
  const nextBtn = h('button', { id: 'next-puzzle', type: 'submit' }, 'Next puzzle');
  const nextErr = h('p', { id: 'next-error', class: 'form-error', role: 'alert', hidden: true });
  const nextForm = h('form', { id: 'next-form' }, h('div', { class: 'field-row' },
    field('Family', family), field('Difficulty', offset), h('div', { class: 'actions' }, nextBtn)), nextErr);
  const openRounds = h('div', { id: 'open-rounds' });
  const myRating = h('p', { id: 'next-rating', class: 'muted' });
  let figures = [];
  const showMyRating = () => {
    const r = figures.find((x) => x.family === family.value);
    setText(myRating, r ? `Your rating in ${r.family}: ${fmtRating(r.rating)} ± ${fmtRating(r.deviation)}` +
      (Number(r.plays) ? ` after ${fmtInt(r.plays)} plays.` : ' (new player).') : '');
  };
  const daily = h('div', { id: 'daily' }, h('p', { class: 'muted' }, 'Loading…'));
  const ratings = h('tbody', {}, emptyRow(6, 'Loading…'));
  const history = h('tbody', {}, emptyRow(8, 'Loading…'));
  show(
    panel('Player', current, playerForm, nameErr),
    h('div', { class: 'play-grid' },
      panel('Next puzzle', h('p', { class: 'muted' }, 'A puzzle you were never served, rated nearest your ' +
        'rating in the family plus the difficulty chosen. Your answer is judged by the store; a first ' +
        'attempt rates you and the puzzle.'), myRating, nextForm, openRounds),
      panel('Puzzle of the day', daily)),
    panel('Ratings', table({ id: 'player-ratings', class: 'data' },
      ['Family', 'Rating', 'Deviation', 'Plays', 'Solved', 'Solve rate'], ratings)),
    panel('This session’s plays', table({ id: 'player-history', class: 'data' },
      ['When', 'Puzzle', 'Family', 'Served as', 'Result', 'Rating after', 'Change', 'Seconds'], history)));

  const needPlayer = () => {
    const none = !session.player;
    nextBtn.disabled = none;
    nextBtn.title = none ? 'Set a player name first' : '';
    for (const b of daily.querySelectorAll('#daily-play')) b.disabled = none;
    current.replaceChildren(...(none
      ? [h('span', { class: 'muted' }, 'Choose a name to play: plays are recorded and rated under it. ' +
        'Anyone using this console may play under any name.')]
      : ['Playing as ', h('strong', { id: 'player-shown' }, session.player), '.']));
    setText(setBtn, none ? 'Play as' : 'Change player');
  };
  const loadPlayer = () => guard(api('GET', '/api/player').then((d) => {
    if (seq !== routeSeq) return;
    session.player = d.player || '';
    renderHeader();
    needPlayer();
    const rows = figures = Array.isArray(d.ratings) ? d.ratings : [];
    showMyRating();
    ratings.replaceChildren(...rows.map((r) => h('tr', { class: 'rating-row', 'data-family': r.family },
      h('th', { scope: 'row' }, r.family),
      h('td', { class: 'num', 'data-field': 'rating', 'data-value': r.rating },
        fmtRating(r.rating), Number(r.plays) ? '' : h('small', { class: 'muted' }, ' new')),
      h('td', { class: 'num', 'data-field': 'deviation' }, '± ' + fmtRating(r.deviation)),
      h('td', { class: 'num', 'data-field': 'plays' }, fmtInt(r.plays)),
      h('td', { class: 'num', 'data-field': 'solves' }, fmtInt(r.solves)),
      h('td', { class: 'num', 'data-field': 'solve_rate' }, Number(r.plays) ? fmtPct(r.solve_rate) : '—'))));
    if (!rows.length) ratings.replaceChildren(emptyRow(6, d.player ? 'No family yet.' : 'No player yet.'));
    const plays = Array.isArray(d.history) ? d.history : [];
    history.replaceChildren(...plays.map((e) => h('tr', { class: 'history-row', 'data-id': e.puzzle_id,
      'data-result': e.solved ? 'solved' : 'failed' },
    h('td', {}, fmtTime(e.t_ms)), h('td', {}, h('a', { href: '#/play/' + enc(e.puzzle_id) }, e.puzzle_id)),
    h('td', {}, e.family), h('td', {}, servedAs(e)), h('td', {}, resultBadge(e.solved)),
    h('td', { class: 'num', 'data-field': 'rating' }, fmtRating(e.rating)), changeCell(e),
    h('td', { class: 'num' }, fmtNum(e.seconds, 1)))));
    if (!plays.length) history.replaceChildren(emptyRow(8, 'No play yet in this session.'));
    const open = Array.isArray(d.open_rounds) ? d.open_rounds : [];
    openRounds.replaceChildren(open.length ? h('p', { class: 'muted' }, 'Not answered yet: ',
      open.map((r, i) => [i ? ', ' : '', h('a', { class: 'open-round', href: '#/play/' + enc(r.puzzle_id) },
        `${r.family} ${r.puzzle_id}`)])) : '');
  }));
  const loadDaily = () => {
    const fam = family.value;
    if (!fam) return;
    guard(api('GET', '/api/daily?family=' + enc(fam), null, { quiet: true }).then((d) => {
      if (seq !== routeSeq || family.value !== fam) return;
      const p = d.puzzle || {}, r = d.round;
      const label = !r ? 'Play it' : r.played ? 'See your result' : 'Continue';
      const play = h('button', { id: 'daily-play', type: 'button', disabled: !session.player }, label);
      play.addEventListener('click', async () => {
        play.disabled = true;
        try {
          const o = await api('POST', '/api/player/daily', { family: fam, date: d.date });
          if (o.round) location.hash = '#/play/' + enc(o.round.puzzle_id);
        } catch (e) {
          if (!(e instanceof ApiError)) throw e;
          play.disabled = false;
        }
      });
      daily.replaceChildren(h('p', {}, h('strong', {}, fam), ' · ', h('span', { id: 'daily-date' }, d.date),
        ' (UTC): the same puzzle for everybody today.'),
      kvList({ id: 'daily-puzzle', 'data-id': p.id }, [['id', 'Puzzle', h('code', {}, p.id)],
        ['level', 'Level', p.level || '—'], ['score', 'Score', isNum(p.score) ? Number(p.score).toFixed(3) : '—'],
        ['result', 'You', r && r.result ? resultBadge(r.result.solved) : 'not played in this session']]),
      h('div', { class: 'actions' }, play));
    }).catch((e) => {
      if (seq === routeSeq && e instanceof ApiError) daily.replaceChildren(h('p', { class: 'muted', id: 'daily-error' }, e.message));
      throw e;
    }));
  };

  playerForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    setMsg(nameErr, '');
    setBtn.disabled = true;
    try {
      const d = await api('POST', '/api/player', { name: name.value }, { quiet: true });
      session.player = d.player || '';
      name.value = session.player;
      loadPlayer();
      loadDaily();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      setMsg(nameErr, e.message);
    } finally { setBtn.disabled = false; }
  });
  nextForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    nextBtn.disabled = true;
    await takeNext(family.value, offset.value, nextErr);
    if (seq === routeSeq) needPlayer();
  });
  family.addEventListener('change', () => { playState.family = family.value; showMyRating(); loadDaily(); });
  offset.addEventListener('change', () => { playState.offset = offset.value; });
  needPlayer();
  loadPlayer();
  guard(api('GET', '/api/families').then((d) => {
    if (seq !== routeSeq) return;
    const names = (Array.isArray(d.families) ? d.families : []).map((f) => f.name);
    family.replaceChildren(...names.map((n) => h('option', { value: n }, n)));
    if (names.includes(playState.family)) family.value = playState.family;
    playState.family = family.value;
    showMyRating();
    loadDaily();
  }));
}

// -------------------------------------------------------------- round ---
function viewRound(seq, id) {
  const opened = performance.now(); // "seconds" of the play count from here
  show(h('p', { class: 'muted' }, 'Loading puzzle…'));
  guard(Promise.all([api('GET', '/api/player/rounds/' + enc(id)), api('GET', '/api/puzzles/' + enc(id))])
    .then(([d, p]) => { if (seq === routeSeq) show(roundPage(seq, id, p, d.round || {}, opened)); })
    .catch((e) => {
      if (seq === routeSeq && e instanceof ApiError) {
        show(panel('Round unavailable', h('p', {}, e.message), h('p', {}, h('a', { href: '#/play' }, '← Play'),
          ' · ', h('a', { href: '#/puzzles/' + enc(id) }, 'the puzzle’s own page'))));
      }
      throw e;
    }));
}
function roundPage(seq, id, p, round, opened) {
  const info = puzzleInfo(p);
  const answer = h('textarea', { id: 'play-answer', rows: 4, spellcheck: 'false', placeholder: 'Your answer' });
  const submit = h('button', { id: 'play-submit', type: 'submit' }, 'Submit answer');
  const next = h('button', { id: 'round-next', type: 'button', class: 'secondary',
    title: 'A skipped puzzle stays served: it is not offered again' }, 'Skip');
  const result = h('p', { id: 'play-result', role: 'status' });
  const change = h('p', { id: 'rating-change', hidden: true });
  const solution = h('pre', { id: 'solution-text', class: 'text', hidden: true });
  const solutionLabel = h('h3', { hidden: true }, 'The answer');
  const form = h('form', { id: 'play-form' }, h('p', { id: 'play-prompt', class: 'prompt' }, p.prompt || ''),
    answer, h('div', { class: 'actions' }, submit, next), result, change, solutionLabel, solution);

  const showResult = (r) => {
    const e = r.result || {};
    setText(result, e.solved ? 'Solved!' : 'Not solved');
    result.className = e.solved ? 'right' : 'wrong';
    const d = Number(e.rating_change) || 0;
    change.setAttribute('data-change', Math.round(d));
    change.className = 'rating-change ' + (d > 0 ? 'up' : d < 0 ? 'down' : '');
    setText(change, e.rated
      ? `Rating ${fmtRating(e.rating_before)} → ${fmtRating(e.rating)} (${fmtChange(d)}) in ${r.family}; ` +
        `the puzzle is now rated ${fmtRating(e.puzzle_rating)} (${fmtChange(e.puzzle_rating_change)}).`
      : `Not rated (only a player's first attempt at a puzzle served to them is): ` +
        `rating ${fmtRating(e.rating)} in ${r.family}.`);
    change.hidden = false;
    if (!e.solved && r.solution) {
      setText(solution, r.solution);
      solution.hidden = solutionLabel.hidden = false;
    }
    if (r.answer != null) answer.value = r.answer;
    answer.readOnly = true;
    submit.disabled = true;
    setText(next, 'Next puzzle');
    next.title = '';
  };
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (submit.disabled) return; // one answer per round; Enter twice is one play
    submit.disabled = true;
    const seconds = Math.round((performance.now() - opened) / 100) / 10;
    try {
      const d = await api('POST', '/api/player/rounds/' + enc(id) + '/play', { answer: answer.value, seconds });
      if (seq !== routeSeq) return;
      if (d.round) showResult(d.round);
      if (d.plays) info.update(d.plays, d.observed);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      setText(result, e.message); // unreadable: nothing recorded, type again
      result.className = 'error';
      submit.disabled = false;
    }
  });
  next.addEventListener('click', () => guard(takeNext(round.family,
    round.source === 'next' ? round.offset : playState.offset, null)));
  if (round.played) showResult(round);

  return h('section', { id: 'puzzle-view', 'data-id': p.id == null ? id : p.id, 'data-round': round.source || '' },
    h('p', {}, h('a', { href: '#/play' }, '← Play')),
    h('div', { class: 'puzzle-grid' }, puzzleDrawing(id, p),
      h('div', {},
        panel('Play as ' + (round.player || ''), h('p', { id: 'round-info', class: 'muted' },
          `${round.family} · ${servedAs(round)}`), form),
        info.panels)));
}
