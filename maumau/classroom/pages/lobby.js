// The lobby: join a table by its code; the teacher logs in (the token goes once to POST /login in a
// header, never into a URL; the server answers with an HttpOnly, SameSite=Strict session cookie
// that this page's websocket then carries, and the session's CSRF token in a cookie this page
// reads and sends back to POST /logout) and lists, creates, starts, restarts and closes
// tables.  Every text from the server goes into the page with textContent.
'use strict';

(function () {
  const TEXT = {
    en: {
      title: 'Mau-Mau at the class table', intro: 'Play Mau-Mau with your class: on a phone, a laptop or the projector.',
      joinTitle: 'Join a table', code: 'Table code', join: 'Go to the table',
      teacher: 'For the teacher', token: 'Teacher token (printed when the server starts)', useToken: 'Log in',
      logout: 'Log out', seedHint: 'empty: a secret random deal', clock: 'Turn clock (seconds, empty: none)',
      restart: 'New match', seedShown: 'seed {seed}', randomSeed: 'random deal', clockShown: '{s} s per turn',
      connecting: 'connecting…', connected: 'connected', offline: 'connection lost, trying again…',
      create: 'Create a table', variant: 'Variant', seats: 'Seats', computers: 'Computers', strength: 'Computer strength',
      seed: 'Seed', lang: 'Language', without: 'Rules to leave out (comma list)', createButton: 'Create',
      tables: 'Open tables', refresh: 'Refresh', none: 'No open tables yet.',
      created: 'Table {code} is open: learners join with this code.', start: 'Start now', close: 'Close',
      closeSure: 'Close table {code}? Everyone at it is told, and it cannot be resumed.',
      started: 'playing', notStarted: 'waiting for players', matchOver: 'match over', hands: '{n} hands played',
      seatPage: 'Seat page', projector: 'Projector', teacherProjector: 'Projector with open hands',
      open: 'open', computer: 'computer', away: 'away', badToken: 'That teacher token is not right.',
      codes: 'Personal codes (not on the projector)', codesLearner: 'Learner', codesName: 'Name',
      codesCode: 'Personal code', codesRenew: 'New code',
      codesHint: 'Each learner of the roster joins and hands in with their own code. A code is shown only by the '
        + 'server that issued it; after a restart, give a learner who lost theirs a new one.',
      codeKept: 'issued {issued}: not kept in plain', renew: 'New code',
      renewSure: 'A new code for {learner}? The old one stops working.',
      courseLink: 'Course page (grades, hand-ins, feedback)', liveLink: 'The class right now (live checks)',
    },
  };
  const params = new URLSearchParams(location.search);
  const LANG = ['en', 'de', 'hu'].includes(params.get('lang')) ? params.get('lang') : 'en';
  const WORDS = Object.assign({}, TEXT.en, TEXT[LANG] || {});
  function t(key, values) {
    let text = WORDS[key];
    if (text === undefined) return key;
    for (const [name, value] of Object.entries(values || {})) text = text.split('{' + name + '}').join(String(value));
    return text;
  }
  const $ = (id) => document.getElementById(id);
  const BASE = location.pathname.endsWith('/') ? location.pathname : location.pathname + '/';
  const LANG_QUERY = LANG !== 'en' ? 'lang=' + LANG : '';

  let ws = null;
  let ids = 1;
  let retry = 0;
  let teacher = false;  // logged in: this browser has the teacher's session cookie
  let poll = null;
  const waiting = new Map();

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // --- the connection ------------------------------------------------------------------------------
  function connect() {
    setConn('connecting');
    const socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + BASE + 'ws');
    ws = socket;
    socket.addEventListener('open', () => { retry = 0; setConn('connected'); showTeacher(); });
    socket.addEventListener('message', (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      const callback = message.id !== undefined ? waiting.get(message.id) : undefined;
      if (callback) { waiting.delete(message.id); callback(message); }
    });
    socket.addEventListener('close', () => {
      if (ws !== socket) return;
      ws = null;
      setConn('offline');
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 500 * retry);
    });
  }
  function ask(request, onAnswer) {
    if (!ws || ws.readyState !== WebSocket.OPEN) { say(t('offline'), 'error'); return; }
    const id = ids++;
    request.id = id;
    waiting.set(id, onAnswer);
    ws.send(JSON.stringify(request));
  }
  function setConn(kind) {
    $('conn').dataset.state = kind;
    $('conn').textContent = t(kind);
  }
  function say(text, kind) {
    const message = $('teacher-message');
    message.textContent = text;
    message.className = 'message' + (kind ? ' ' + kind : '');
  }

  // --- joining ----------------------------------------------------------------------------------------
  $('join').addEventListener('submit', (event) => {
    event.preventDefault();
    const code = $('code').value.trim().toUpperCase().replace(/[^A-Z0-9]/g, '');
    if (code) location.href = BASE + 't/' + encodeURIComponent(code) + (LANG_QUERY ? '?' + LANG_QUERY : '');
  });

  // --- the teacher ---------------------------------------------------------------------------------------
  // The cookie is set by the server and read by nobody here: a websocket opened after the login
  // carries it; whether it does, the answer to `tables` says.
  function showTeacher(afterLogin) {
    ask({ type: 'tables' }, (answer) => {
      teacher = answer.type === 'ok';
      $('teacher-tools').hidden = !teacher;
      $('token-form').hidden = teacher;
      $('logout').hidden = !teacher;
      // on JupyterHub the teacher is a hub role: one logs out of the hub, not of this page
      if (teacher) ask({ type: 'ping' }, (pong) => { if (pong.user) $('logout').hidden = true; });
      if (!teacher) { if (afterLogin) say(t('badToken'), 'error'); return; }
      $('teacher').open = true;
      showCourseLinks();
      say('');
      showTables(answer.tables);
      listCodes();
      if (!poll) poll = setInterval(listTables, 5000);
    });
  }
  // The course page and the live view, where this server has a course: /live answers the logged-in
  // teacher alone (anyone else gets a refusal, and never sees these links).
  async function showCourseLinks() {
    let answer = null;
    try {
      answer = await fetch(BASE + 'live', { credentials: 'same-origin', cache: 'no-store', redirect: 'manual' });
    } catch (e) { /* no live view: no links */ }
    $('course-links').hidden = !(teacher && answer && answer.ok);
  }
  async function logIn(token) {
    let answer;
    try {
      answer = await fetch(BASE + 'login', { method: 'POST', headers: { Authorization: 'Teacher ' + token },
        credentials: 'same-origin', cache: 'no-store' });
    } catch (e) { say(t('offline'), 'error'); return; }
    $('token').value = '';
    if (!answer.ok) { say(answer.status === 403 ? t('badToken') : (await answer.text()), 'error'); return; }
    reconnect(() => showTeacher(true));  // the new websocket carries the session cookie
  }
  function reconnect(then) {
    const old = ws;
    ws = null;
    if (old) old.close();
    connect();
    const wait = setInterval(() => {
      if (ws && ws.readyState === WebSocket.OPEN) { clearInterval(wait); then(); }
    }, 50);
  }
  function listTables() {
    if (!teacher || !ws || ws.readyState !== WebSocket.OPEN) return;
    ask({ type: 'tables' }, (answer) => {
      if (answer.type === 'ok') showTables(answer.tables);
    });
  }

  function tableLink(code, query, text) {
    const a = el('a', null, text);
    const parts = [query, LANG_QUERY].filter(Boolean).join('&');
    a.href = BASE + 't/' + encodeURIComponent(code) + (parts ? '?' + parts : '');
    a.target = '_blank';
    a.rel = 'noopener';
    return a;
  }

  function showTables(tables) {
    const list = $('tables');
    list.replaceChildren();
    $('no-tables').hidden = tables.length > 0;
    for (const table of tables) {
      const item = el('li', 'table-item' + (table.match_over ? ' over' : ''));
      const head = el('div');
      head.append(el('span', 'code', table.code));
      const state = table.match_over ? t('matchOver') : table.started ? t('started') : t('notStarted');
      const facts = [table.variant, state, t('hands', { n: table.hands }), table.strength,
        table.seed !== undefined ? t('seedShown', { seed: table.seed }) : t('randomSeed')];
      if (table.clock) facts.push(t('clockShown', { s: table.clock }));
      if ((table.without || []).length) facts.push('− ' + table.without.join(', '));
      head.append(el('span', null, facts.join(' · ')));
      item.append(head);
      const people = table.seats.map((s) => {
        if (s.kind === 'open') return '(' + t('open') + ')';
        if (s.kind === 'computer') return s.name + ' [' + t('computer') + ']';
        return s.name + (s.kind === 'human' && !s.connected ? ' [' + t('away') + ']' : '');
      });
      item.append(el('div', 'people', people.join(', ')));
      const links = el('div', 'links');
      links.append(tableLink(table.code, '', t('seatPage')), tableLink(table.code, 'watch=1', t('projector')),
        tableLink(table.code, 'watch=1&open=1', t('teacherProjector')));
      if (!table.started && !table.match_over) {
        const start = el('button', 'quiet', t('start'));
        start.type = 'button';
        start.addEventListener('click', () => ask({ type: 'start', code: table.code }, after));
        links.append(start);
      }
      if (table.match_over) {
        const restart = el('button', 'quiet', t('restart'));
        restart.type = 'button';
        restart.addEventListener('click', () => ask({ type: 'restart', code: table.code }, after));
        links.append(restart);
      }
      const close = el('button', 'quiet', t('close'));
      close.type = 'button';
      close.addEventListener('click', () => {
        if (window.confirm(t('closeSure', { code: table.code }))) ask({ type: 'close', code: table.code }, after);
      });
      links.append(close);
      item.append(links);
      list.append(item);
    }
  }
  function after(answer) {
    if (answer.type === 'error') say(answer.message, 'error');
    listTables();
  }

  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = $('token').value.trim();
    if (token) logIn(token);
  });
  // The session's CSRF token (the login set it in a cookie of this site only): a log-out carries it.
  function csrfToken() {
    const found = document.cookie.split('; ').find((c) => c.startsWith('maumau_csrf='));
    return found ? found.slice('maumau_csrf='.length) : '';
  }
  $('logout').addEventListener('click', async () => {
    try {
      await fetch(BASE + 'logout', { method: 'POST', headers: { 'X-Maumau-CSRF': csrfToken() },
        credentials: 'same-origin', cache: 'no-store' });
    } catch (e) { /* offline */ }
    teacher = false;
    reconnect(() => showTeacher());
  });
  $('refresh').addEventListener('click', listTables);
  $('create').addEventListener('submit', (event) => {
    event.preventDefault();
    const number = (id) => Number.parseInt($(id).value, 10);
    const without = $('without').value.split(',').map((s) => s.trim()).filter(Boolean);
    const table = {
      variant: $('variant').value, seats: number('seats'), computers: number('computers'),
      strength: $('strength').value, lang: $('lang').value, without,
    };
    // a seed only when the teacher asks for a reproducible deal; else the server's secret one
    if ($('seed').value.trim() !== '') table.seed = number('seed');
    if ($('clock').value.trim() !== '') table.clock = Number($('clock').value);
    ask({ type: 'create', table }, (answer) => {
      if (answer.type === 'error') { say(answer.message, 'error'); return; }
      say(t('created', { code: answer.code }), 'ok');
      listTables();
    });
  });

  // --- the roster's personal codes (a server started with --roster) ---------------------------------
  function listCodes(renew) {
    const request = { type: 'codes' };
    if (renew) request.renew = renew;
    ask(request, (answer) => {
      $('codes-box').hidden = answer.type !== 'ok';
      if (answer.type !== 'ok') return;
      const body = $('codes');
      body.replaceChildren();
      for (const line of answer.codes) {
        const row = el('tr');
        row.append(el('th', '', line.learner), el('td', '', line.name),
          el('td', line.code ? 'code' : '', line.code || t('codeKept', { issued: line.issued })));
        const cell = el('td');
        const button = el('button', 'quiet', t('renew'));
        button.type = 'button';
        button.addEventListener('click', () => {
          if (window.confirm(t('renewSure', { learner: line.learner }))) listCodes(line.learner);
        });
        cell.append(button);
        row.append(cell);
        row.firstChild.scope = 'row';
        body.append(row);
      }
      if (renew) $('codes-box').open = true;
    });
  }

  // --- start ---------------------------------------------------------------------------------------------
  const words = {
    title: 'title', intro: 'intro', 'join-title': 'joinTitle', 'code-label': 'code', 'join-button': 'join',
    'teacher-title': 'teacher', 'token-label': 'token', 'token-button': 'useToken', 'create-title': 'create',
    'variant-label': 'variant', 'seats-label': 'seats', 'computers-label': 'computers', 'strength-label': 'strength',
    'seed-label': 'seed', 'lang-label': 'lang', 'without-label': 'without', 'create-button': 'createButton',
    'clock-label': 'clock', logout: 'logout',
    'tables-title': 'tables', refresh: 'refresh', 'no-tables': 'none', 'codes-title': 'codes',
    'codes-hint': 'codesHint', 'codes-learner': 'codesLearner', 'codes-name': 'codesName', 'codes-code': 'codesCode',
    'codes-renew': 'codesRenew', 'course-link': 'courseLink', 'live-link': 'liveLink',
  };
  for (const [id, key] of Object.entries(words)) $(id).textContent = t(key);
  document.documentElement.lang = LANG;
  $('lang').value = LANG;
  $('seed').placeholder = t('seedHint');
  $('course-link').href = BASE + 'course' + (LANG_QUERY ? '?' + LANG_QUERY : '');
  $('live-link').href = BASE + 'live' + (LANG_QUERY ? '?' + LANG_QUERY : '');
  connect();
}());
