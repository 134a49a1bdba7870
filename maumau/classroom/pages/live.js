// The teacher's live page (maumau/classroom/progress_page.py): watches /live/ws and draws each
// frame (live_wire.LiveFrame).  Every text goes in with textContent: a name is never markup.
'use strict';
(function () {
  const SETTINGS = JSON.parse(document.getElementById('settings').textContent);
  const W = SETTINGS.words;
  const PROJECTOR = SETTINGS.projector;
  const BASE = location.pathname.replace(/\/live(\/projector)?\/?$/, '');
  const $ = (id) => document.getElementById(id);
  const say = (key, values) => (W[key] || key).replace(/\{(\w+)\}/g, (_, k) => String(values && k in values ? values[k] : ''));
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
  let frame = null;
  let received = 0;
  let delay = 500;

  document.body.classList.toggle('projector', PROJECTOR);
  $('title').textContent = say(PROJECTOR ? 'projector' : 'title');
  $('intro').textContent = say('intro');
  $('failing-title').textContent = say('failing');
  $('rules-title').textContent = say('rules');
  $('counts-title').textContent = say('counts');
  $('caption').textContent = say('caption');
  const other = $('other-view');
  other.textContent = say(PROJECTOR ? 'to_teacher' : 'to_projector');
  other.href = BASE + (PROJECTOR ? '/live' : '/live/projector') + location.search;
  $('class-section').hidden = PROJECTOR;

  function status(state, text) { const conn = $('conn'); conn.dataset.state = state; conn.textContent = text; }

  function connect() {
    status('connecting', say('connecting'));
    const socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + BASE + '/live/ws');
    socket.onopen = () => {
      delay = 500;
      socket.send(JSON.stringify({type: 'watch', projector: PROJECTOR, idle: SETTINGS.idle, lang: SETTINGS.lang}));
      status('connected', say('connected'));
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'error') { status('offline', say('refused', {message: message.message})); delay = 0; return; }
      if (message.type !== 'live') return;
      frame = message;
      received = Date.now();
      draw();
    };
    socket.onclose = () => {
      if (delay === 0) return;  // refused: trying again would be refused again
      status('offline', say('offline'));
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 10000);
    };
  }

  // Minutes since a time of the server's clock, as the server's clock reads now.
  function minutesSince(at) { return Math.floor((frame.now + (Date.now() - received) / 1000 - at) / 60); }

  function fill(list, items) { list.replaceChildren(...items); }

  // A card stays on the line of the word before it ("plays 8♥", never "plays" and "8♥" a line apart).
  function keepCards(name) { return name.replace(/ (?=\S*[♥♦♣♠])/g, '\u00a0'); }

  function draw() {
    if (!frame) return;
    const m = frame.learners;
    const minutes = frame.idle_minutes;
    if (PROJECTOR) {
      $('idle').textContent = frame.idle_count ? say('idle_count', {n: frame.idle_count, m, minutes}) : say('idle_none', {minutes});
    } else {
      $('idle').textContent = frame.idle.length ? frame.idle.join(', ') : say('idle_none', {minutes});
    }
    $('idle-title').textContent = say('idle', {minutes});
    const title = (name) => (frame.titles && frame.titles[name]) || name;
    fill($('failing'), frame.failing.length ? frame.failing.map((f) => {
      const li = el('li');
      li.append(el('strong', keepCards(f.check)), document.createTextNode(': '), el('span', say('of', {n: f.learners, m: f.tried}), 'bad'),
                el('br'), el('span', [title(f.exercise)].concat(f.rules.filter((r) => !title(f.exercise).includes(r))).join(' · '), 'quiet'));
      return li;
    }) : [el('li', say('no_failing'), 'ok')]);
    $('variants-note').textContent = frame.variants ? say('variants') : '';
    $('variants-note').hidden = !frame.variants;
    fill($('rules'), frame.rules.map((r) => {
      const li = el('li');
      li.append(el('strong', r.rule), document.createTextNode(': '), el('span', say('rule', {n: r.learners}), 'bad'));
      if (r.says) li.append(el('br'), el('span', r.says, 'quiet'));
      return li;
    }));
    fill($('counts'), frame.counts.length ? frame.counts.map((c) => el('li', say('count', {exercise: title(c.exercise), all: c.all_passed, tried: c.tried})))
                                          : [el('li', say('empty'), 'quiet')]);
    if (PROJECTOR) return;
    const head = [el('th', say('learner'))];
    head[0].scope = 'col';
    for (const name of frame.exercises) { const th = el('th', title(name)); th.scope = 'col'; head.push(th); }
    fill($('head'), head);
    const stuck = new Set(frame.idle);
    fill($('rows'), frame.rows.map((row) => {
      const tr = el('tr');
      const th = el('th', row.name);
      th.scope = 'row';
      if (!row.connected && row.progress === null) th.append(el('span', say('not_yet'), 'quiet when'));
      else {
        const ago = Math.max(0, minutesSince(row.progress));
        const key = Object.keys(row.cells).length ? (ago ? 'last' : 'just') : 'no_check';
        th.append(el('span', say(key, {minutes: ago}), 'quiet when'));
      }
      if (stuck.has(row.name)) tr.className = 'stuck';
      tr.append(th);
      for (const exercise of frame.exercises) {
        const cell = row.cells[exercise];
        const td = el('td');
        if (!cell) {
          const none = el('span', say('untried'), 'quiet');
          none.title = say('untried_long');
          td.append(none, el('span', ' ' + say('untried_long'), 'sr-only'));
        } else if (cell.failed.length === 0) {
          td.append(el('span', say('all', {total: cell.total}), 'ok'));
        } else {
          td.append(el('span', say('passed', {passed: cell.passed, total: cell.total}), 'bad'));
          const list = el('ul');
          for (const name of cell.failed) list.append(el('li', say('failed', {name: keepCards(name)})));
          td.append(list);
        }
        tr.append(td);
      }
      return tr;
    }));
  }

  setInterval(draw, 30000);  // the minutes since the last progress go on without a frame
  connect();
})();
