// One seat at a class table, or the projector: talks to the server's /ws, draws what it is sent.
// Every text from the server (names, narration) goes into the page with textContent, never as HTML.
'use strict';

(function () {
  // --- the page's words: sent by the server in the page's language (maumau/text/locale/page.py) -----
  const params = new URLSearchParams(location.search);
  const WORDS = JSON.parse(document.getElementById('words').textContent || '{}');
  const LANG = document.documentElement.lang || 'en';
  // the version of the messages this page speaks (maumau/classroom/messages.py), set by the server
  const PROTOCOL = Number(document.querySelector('meta[name="maumau-protocol"]').content);
  function t(key, values) {
    let text = WORDS[key];
    if (text === undefined) return key;
    for (const [name, value] of Object.entries(values || {})) text = text.split('{' + name + '}').join(String(value));
    return text;
  }

  // --- cards --------------------------------------------------------------------------------
  const SYMBOL = { C: '♣', D: '♦', H: '♥', S: '♠' };
  function parseCard(text) {
    if (text === 'JOKER') return { joker: true, rank: '★', suit: null, text };
    return { joker: false, rank: text.slice(0, -1), suit: text.slice(-1), text };
  }
  function cardSymbol(text) {
    const c = parseCard(text);
    return c.joker ? '★' : c.rank + SYMBOL[c.suit];  // not 🃏: no emoji font on many machines
  }
  /** A card's name for a screen reader, as the server says it in the page's language. */
  function cardName(text) {
    const names = state.table && state.table.names;
    return (names && names[text]) || text;
  }
  function colourClass(text) {
    const c = parseCard(text);
    return c.joker ? 'joker' : (c.suit === 'H' || c.suit === 'D') ? 'red' : 'black';
  }
  /** A card face (spans only), filled into ``el``: rank in two corners, the suit large. */
  function fillFace(el, text) {
    const c = parseCard(text);
    el.classList.add('face', colourClass(text));
    if (c.suit) el.classList.add('suit-' + c.suit);  // the four-colour deck paints by suit (style.css)
    // The glyphs are drawn by CSS from data-* (generated content with no alternative text): the card's
    // name ("King of Spades, playable") is all a screen reader or speech input gets, and no visible
    // text ("K♠") is left out of it (WCAG 2.5.3, label in name).
    const corner = document.createElement('span');
    corner.className = 'corner';
    corner.dataset.text = c.joker ? '★' : c.rank + SYMBOL[c.suit];
    const pip = document.createElement('span');
    pip.className = 'pip';
    pip.dataset.text = c.joker ? 'JOKER' : SYMBOL[c.suit];
    el.dataset.corner = corner.dataset.text;
    for (const part of [corner, pip]) part.setAttribute('aria-hidden', 'true');
    el.append(corner, pip);
    return el;
  }
  function faceDiv(text, size) {
    const el = document.createElement('div');
    el.className = 'card ' + (size || '');
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', cardName(text));
    return fillFace(el, text);
  }
  function back(size) {
    const el = document.createElement('div');
    el.className = 'back ' + (size || '');
    el.setAttribute('aria-hidden', 'true');
    return el;
  }

  // --- where we are ---------------------------------------------------------------------------
  const match = location.pathname.match(/\/t\/([^/]+)\/?$/);
  const CODE = match ? decodeURIComponent(match[1]).toUpperCase() : '';
  const BASE = location.pathname.replace(/t\/[^/]*\/?$/, '');
  const WATCH = params.get('watch') === '1';
  // the teacher's projector (open hands): the server lets it open only for the logged-in teacher
  const OPEN = WATCH && params.get('open') === '1';
  const TOKEN_KEY = 'maumau.token.' + CODE;
  const $ = (id) => document.getElementById(id);

  const state = {
    ws: null, ids: 1, table: null, seat: null, token: null, personal: null, joined: false, retry: 0, stop: false,
    log: [], lastN: -1, mau: false, bannerShownAt: 0, bannerFor: null, bannerClosed: null, errorUntil: 0,
    errorN: null,
    call: 'Mau',
  };

  function storedToken() {
    try { return localStorage.getItem(TOKEN_KEY); } catch (e) { return null; }
  }
  function storeToken(token) {
    try {
      if (token) localStorage.setItem(TOKEN_KEY, token); else localStorage.removeItem(TOKEN_KEY);
    } catch (e) { /* private mode: the seat lasts as long as the page */ }
  }

  // --- the connection -------------------------------------------------------------------------
  function wsUrl() {
    return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + BASE + 'ws';
  }
  const waiting = new Map();  // id -> callback for the answer

  function send(request, onAnswer) {
    if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return false;
    const id = state.ids++;
    request.id = id;
    request.v = PROTOCOL;
    if (onAnswer) waiting.set(id, onAnswer);
    state.ws.send(JSON.stringify(request));
    return true;
  }

  function connect() {
    setConn('connecting');
    const ws = new WebSocket(wsUrl());
    state.ws = ws;
    ws.addEventListener('open', () => { state.retry = 0; setConn('connected'); sitOrWatch(); });
    ws.addEventListener('message', (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      receive(message);
    });
    ws.addEventListener('close', () => {
      if (state.ws !== ws) return;
      state.ws = null;
      if (state.stop) return;
      setConn('offline');
      state.retry = Math.min(state.retry + 1, 6);
      setTimeout(connect, 500 * state.retry);
    });
  }

  function sitOrWatch() {
    const base = { code: CODE, lang: LANG };
    if (WATCH) {
      const request = Object.assign({ type: 'watch' }, base);
      if (OPEN) request.open = true;
      send(request, answered);
    } else if (state.token) {
      send(Object.assign({ type: 'join', token: state.token }, base), answered);
    } else if (state.personal) {  // a reconnect of a seat taken with the personal code (kept in this page only)
      send(Object.assign({ type: 'join', personal: state.personal }, base), answered);
    } else {
      // on JupyterHub the hub says who this is: sit down under the hub name, no form
      send({ type: 'ping' }, (answer) => {
        if (answer.user) send(Object.assign({ type: 'join', name: answer.user }, base), answered);
        else showJoin();
      });
    }
  }

  function answered(message) {
    if (message.type === 'error') {
      if (message.code === 'bad_token') {
        storeToken(null);
        state.token = null;
        showJoin(t('badToken'));
      } else if (message.code === 'unknown_table') {
        stopWith(t('unknownTable', { code: CODE }));
      } else if (WATCH && !state.joined) {  // a projector cannot fix it with a name: say why and stop
        stopWith(message.message);
      } else if (!state.joined) {
        showJoin(message.message);
      } else {
        showError(message.message);
      }
      return;
    }
    state.joined = true;
    if (message.token) { state.token = message.token; storeToken(message.token); }
    if (typeof message.seat === 'number') state.seat = message.seat;
    $('join').hidden = true;
    $('game').hidden = false;
    $('leave').hidden = WATCH;
  }

  function receive(message) {
    if (message.v !== PROTOCOL) { stopWith(t('version')); return; }  // a server of another version: reload
    if (message.type === 'table') { draw(message); return; }
    const callback = message.id !== undefined ? waiting.get(message.id) : undefined;
    if (callback) { waiting.delete(message.id); callback(message); return; }
    if (message.type === 'error') {
      if (message.code === 'closed') stopWith(t('closed'));
      else if (message.code === 'replaced') stopWith(t('replaced'));
      else showError(message.message);
    }
  }

  function stopWith(text) {
    state.stop = true;
    if (state.ws) state.ws.close();
    $('join').hidden = true;
    $('game').hidden = false;
    $('mine').hidden = true;
    setConn('stopped');
    setStatus(text, 'error', true);
  }

  function setConn(kind) {
    const el = $('conn');
    el.dataset.state = kind;
    el.textContent = kind === 'connected' ? t('connected') : kind === 'offline' ? t('offline')
      : kind === 'connecting' ? t('connecting') : '';
  }

  // --- the join form ----------------------------------------------------------------------------
  function showJoin(problem) {
    $('game').hidden = true;
    $('join').hidden = false;
    $('join-error').textContent = problem || '';
    const name = $('join-name');
    if (!name.value) { try { name.value = localStorage.getItem('maumau.name') || ''; } catch (e) { /* none */ } }
    name.focus();
  }
  $('join').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = $('join-name').value.trim();
    const personal = $('join-personal').value.trim();
    if (!name && !personal) { $('join-error').textContent = t('nameOrCode'); return; }
    if (name) { try { localStorage.setItem('maumau.name', name); } catch (e) { /* none */ } }
    const request = { type: 'join', code: CODE, lang: LANG };
    if (name) request.name = name;
    if (personal) request.personal = personal;
    state.personal = personal || null;
    if (!send(request, answered)) {
      $('join-error').textContent = t('offline');
    }
  });
  $('leave').addEventListener('click', () => {
    if (!window.confirm(t('leaveSure'))) return;
    send({ type: 'leave' }, () => {
      storeToken(null);
      state.stop = true;
      if (state.ws) state.ws.close();
      location.href = BASE;
    });
  });

  // --- drawing the table ------------------------------------------------------------------------
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function seatName(matchSeat) {
    const table = state.table;
    const seat = table && table.seats[matchSeat];
    if (!seat) return '?';
    return seat.name || t('open');
  }
  function handSeatName(handSeat) {
    const table = state.table;
    return table && table.hand_seats[handSeat] !== undefined ? seatName(table.hand_seats[handSeat]) : '?';
  }

  function draw(table) {
    state.table = table;
    $('game').dataset.n = String(table.n);  // the action count the page shows (tests wait on it)
    if (table.you !== null && table.you !== undefined) state.seat = table.you;
    $('game').hidden = false;
    $('join').hidden = true;
    document.title = t('title') + ' ' + table.code;
    const where = [t('table') + ' ' + table.code, table.variant.replace(/_/g, ' ')];
    if (WATCH) where.push(OPEN ? t('teacherView') : t('projector'));
    if (table.hands) where.push(t('hands', { n: table.hands + (table.hand_over ? 0 : 1) }));
    $('where').textContent = where.join(' · ');
    for (const said of table.said || []) {
      if (said.n > state.lastN) { addLog(said); state.lastN = said.n; }
    }
    const view = table.view;
    const mySeatView = view && typeof view.seat === 'number' ? view : null;
    drawSeats(table, view, mySeatView);
    drawCentre(table, view);
    drawMine(table, mySeatView);
    drawBanner(table, view);
    drawStatus(table, view, mySeatView);
  }

  /** Seats around an oval, the viewer's own at the bottom (seat 0 at the bottom for the projector). */
  function drawSeats(table, view, mine) {
    const box = $('seats');
    box.replaceChildren();
    const count = table.seats.length;
    const me = mine ? table.seats.findIndex((s) => s.seat === table.you) : 0;
    const toMove = view && !view.over ? table.hand_seats[view.to_move] : null;
    table.seats.forEach((seat, i) => {
      const angle = Math.PI / 2 + (2 * Math.PI * (i - Math.max(me, 0))) / count;
      const tile = el('div', 'seat');
      // on the oval, and inside the felt's box: a tile at the bottom hangs above its edge, ...
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      tile.style.setProperty('--x', (50 + 50 * cos).toFixed(1) + '%');
      tile.style.setProperty('--y', (50 + 50 * sin).toFixed(1) + '%');
      tile.style.setProperty('--tx', (-50 * (1 + cos)).toFixed(1) + '%');
      tile.style.setProperty('--ty', (-50 * (1 + sin)).toFixed(1) + '%');
      const handSeat = table.hand_seats.indexOf(seat.seat);
      const inHand = view && handSeat >= 0 && (!view.active || view.active[handSeat] !== false);
      if (seat.seat === toMove) tile.classList.add('to-move');
      if (seat.seat === table.you) tile.classList.add('me');
      if (!inHand && view) tile.classList.add('out');
      if (seat.kind === 'open') tile.classList.add('open');

      const name = el('div', 'seat-name');
      name.append(el('span', 'name', seat.name || t('open')));
      if (seat.seat === table.you) name.append(el('span', 'you', ' (' + t('you') + ')'));
      tile.append(name);

      const marks = el('div', 'marks');
      if (seat.kind === 'computer') marks.append(el('span', 'mark computer', '⚙ ' + t('computer')));
      else if (seat.kind === 'human') {
        marks.append(el('span', 'mark ' + (seat.connected ? 'online' : 'away'), seat.connected ? '●' : '○ ' + t('away')));
        if (seat.computer) marks.append(el('span', 'mark computer', '⚙ ' + t('computerHolds')));
      } else if (seat.kind === 'waiting') marks.append(el('span', 'mark', t('waiting')));
      else if (seat.kind === 'left') marks.append(el('span', 'mark', t('left')));
      if (view && handSeat >= 0 && view.dealer === handSeat) {
        const dealer = el('span', 'mark dealer', 'D');
        dealer.title = t('dealer');
        dealer.setAttribute('aria-label', t('dealer'));
        marks.append(dealer);
      }
      tile.append(marks);

      if (view && handSeat >= 0) {
        const n = view.hand_sizes[handSeat];
        const cards = el('div', 'seat-cards');
        if (view.hands && view.hands[handSeat]) {
          cards.classList.add('open-hand');
          for (const c of view.hands[handSeat]) cards.append(faceDiv(c, 'small'));
        } else if (seat.seat !== table.you) {
          const fan = el('div', 'fan');
          for (let k = 0; k < Math.min(n, 12); k++) fan.append(back('small'));
          cards.append(fan);
        }
        if (cards.childNodes.length) tile.append(cards);
        tile.append(el('div', 'count', n === 1 ? t('card') : t('cards', { n })));
      } else if (view) {
        tile.append(el('div', 'count', t('notInHand')));
      }
      const score = table.scores[seat.seat];
      if (score !== undefined) tile.append(el('div', 'score', t('score', { n: score })));
      if (seat.seat === toMove) tile.append(el('div', 'turn-flag', t('toMove')));
      box.append(tile);
    });
  }

  function drawCentre(table, view) {
    const facts = $('facts');
    facts.replaceChildren();
    const waitingLine = $('waiting');
    $('stock').hidden = !view;
    $('discard').hidden = !view;
    if (!view) {
      const taken = table.seats.filter((s) => s.kind !== 'open').length;
      waitingLine.hidden = false;
      waitingLine.textContent = taken < table.seats.length
        ? t('waitingPlayers', { taken, all: table.seats.length }) : t('waitingStart');
      return;
    }
    waitingLine.hidden = true;
    $('stock-label').textContent = t('stock', { n: view.stock_size });
    $('stock').classList.toggle('empty', view.stock_size === 0);
    const stack = $('discard-stack');
    stack.replaceChildren();
    const under = view.discard.slice(-3, -1);
    under.forEach((c, i) => {
      const card = faceDiv(c, 'big under');
      card.classList.add('under' + (under.length - i));
      card.setAttribute('aria-hidden', 'true');
      stack.append(card);
    });
    const top = faceDiv(view.top, 'big top');
    top.setAttribute('aria-label', t('discard') + ': ' + cardName(view.top));
    stack.append(top);
    $('discard-label').textContent = t('discard');
    if (view.wish) facts.append(fact('wish', t('wish', { wish: view.wish_name })));
    if (view.pending) {
      const text = view.pending.text || view.pending.kind + ' ' + view.pending.amount;
      const target = view.pending.target;
      const mine = typeof target === 'number' && target === view.seat;  // the learner reads "for you"
      const who = typeof target === 'number' && !mine ? handSeatName(target) : null;
      const told = mine ? t('pendingForYou', { text }) : who ? t('pendingFor', { text, name: who }) : text;
      facts.append(fact('pending', t('pending', { text: told })));
    }
    for (const told of view.memory_text || []) facts.append(fact('memory', told));
    if (view.hand_sizes.length > 2) {
      facts.append(fact('direction', t('direction', { dir: view.direction === 1 ? t('clockwise') : t('anticlockwise') })));
    }
  }
  function fact(kind, text) {
    return el('li', 'fact ' + kind, text);
  }

  // --- the learner's own hand: drawn from the seat model the server sent (maumau/play/seat_model.py) ---
  // The model says, for each card, the legal ways to play it (each with its label) or why it may not be
  // played now, in this page's language; the page only shows them and sends the chosen move.
  function drawMine(table, view) {
    const mine = $('mine');
    const model = table.model;
    mine.hidden = !view || !model;
    if (!view || !model) { hideChooser(); return; }
    const myTurn = model.my_turn;
    if (!myTurn) { state.mau = false; hideChooser(); }
    $('mine-title').textContent = t('yourHand') + ' (' + (view.hand.length === 1 ? t('card') : t('cards', { n: view.hand.length })) + ')';
    const hand = $('hand');
    const had = focusedCard();  // the redraw replaces every card: the focus must not fall to the page's top
    hand.replaceChildren();
    model.cards.forEach((spot, index) => {
      const button = el('button', 'card hand-card');
      button.type = 'button';
      fillFace(button, spot.card);
      if (spot.drawn) button.classList.add('drawn');
      const parts = [spot.name, spot.choices.length ? t('playable') : t('notPlayable')];
      if (spot.drawn) parts.push(t('justDrawn'));
      button.setAttribute('aria-label', parts.join(', '));
      button.dataset.card = spot.card;
      if (spot.choices.length) button.classList.add('playable');
      else { button.classList.add('unplayable'); button.setAttribute('aria-disabled', 'true'); }
      button.addEventListener('click', () => { state.lastCard = { card: spot.card, index }; chooseCard(index); });
      button.tabIndex = -1;
      hand.append(button);
    });
    rove(had);
    $('draw').textContent = model.draw_label;
    $('draw').disabled = !model.draw;
    $('pass').textContent = model.pass_label;
    $('pass').disabled = !model.pass;
    $('pass').hidden = !model.pass && !myTurn;
    // why a greyed button may not be pressed now: the engine's sentence, as the notebook's table says it
    $('draw').title = !model.draw && model.draw_why ? model.draw_why : '';
    $('pass').title = !model.pass && model.pass_why ? model.pass_why : '';
    state.call = table.call;
    const mau = $('mau');
    mau.textContent = t('mau', { call: state.call });
    $('keys').textContent = t('keys') + ': ' + t('keysHelp', { call: state.call });
    mau.disabled = !myTurn || !model.cards.some((spot) => spot.choices.length);
    mau.setAttribute('aria-pressed', state.mau && !mau.disabled ? 'true' : 'false');
  }

  function currentModel() {
    const table = state.table;
    return table && table.model ? table.model : null;
  }

  /** A card clicked: why not (the model's sentence), its one way to play, or a choice among its ways. */
  function chooseCard(index) {
    const model = currentModel();
    if (!model) return;
    if (!model.my_turn) { showError(model.status); return; }
    const spot = model.cards[index];
    if (!spot) return;
    if (spot.why) { showError(spot.why); return; }
    if (spot.choices.length === 1) { sendMove(spot.choices[0].move); return; }
    showChooser(spot);
  }

  function showChooser(spot) {
    const box = $('chooser');
    $('chooser-title').textContent = t('choose', { card: spot.name });
    const list = $('chooser-options');
    list.replaceChildren();
    for (const choice of spot.choices) {
      const button = el('button', 'option', choice.label);
      button.type = 'button';
      const wish = choice.move.wish;
      if (wish && SYMBOL[wish]) button.classList.add('wish-' + colourClass('2' + wish), 'suit-' + wish);
      button.addEventListener('click', () => { hideChooser(); sendMove(choice.move); });
      list.append(button);
    }
    const cancel = el('button', 'option cancel', t('cancel'));
    cancel.type = 'button';
    cancel.addEventListener('click', hideChooser);
    list.append(cancel);
    box.hidden = false;
    list.firstChild.focus();
  }
  function hideChooser() {
    const box = $('chooser');
    const inside = box.contains(document.activeElement);
    box.hidden = true;
    if (inside) rove({ card: state.lastCard && state.lastCard.card, index: state.lastCard ? state.lastCard.index : 0 }, true);
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !$('chooser').hidden) hideChooser();
  });

  /** Send a move of the model's (the announcement added when its button is pressed: the engine
   *  takes the card and the penalty without it, C-8, and says why when it comes too early). */
  function sendMove(chosen) {
    const table = state.table;
    if (!table) return;
    const move = Object.assign({}, chosen);
    if (move.play && state.mau) move.mau = true;
    state.mau = false;
    send({ type: 'move', move, seq: table.n }, (answer) => {
      if (answer.type === 'error') showError(answer.code === 'stale' ? t('stale') : answer.message);
    });
  }

  $('draw').addEventListener('click', () => {
    const model = currentModel();
    if (model && model.draw) sendMove({ draw: true });
  });
  $('pass').addEventListener('click', () => {
    const model = currentModel();
    if (model && model.pass) sendMove({ pass: true });
  });
  $('mau').addEventListener('click', () => {
    state.mau = !state.mau;
    $('mau').setAttribute('aria-pressed', state.mau ? 'true' : 'false');
  });

  // --- the keyboard: one tab stop for the hand, arrows within, letters for the buttons -----------
  function handCards() { return Array.from($('hand').children); }
  function focusedCard() {
    const active = document.activeElement;
    const cards = handCards();
    const index = cards.indexOf(active);
    return index >= 0 ? { card: active.dataset.card, index } : null;
  }
  /** Give the hand its one tab stop: the card that had the focus (or the one now at its place), and focus it
   *  again if the focus was in the hand (``had``) or ``force``. */
  function rove(had, force) {
    const cards = handCards();
    if (!cards.length) return;
    let target = null;
    if (had && had.card) target = cards.find((b) => b.dataset.card === had.card) || null;
    if (!target && had) target = cards[Math.min(had.index, cards.length - 1)];
    if (!target) target = cards.find((b) => b.classList.contains('playable')) || cards[0];
    for (const b of cards) b.tabIndex = b === target ? 0 : -1;
    if ((had && document.activeElement === document.body) || force) target.focus();
  }
  const LETTERS = { d: 'draw', p: 'pass', m: 'mau' };
  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey || target.closest('input, textarea, select')) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    const list = target.closest('#hand') ? handCards() : target.closest('#chooser') ? Array.from($('chooser-options').children) : null;
    if (list && (step || event.key === 'Home' || event.key === 'End')) {
      const i = list.indexOf(target);
      const j = event.key === 'Home' ? 0 : event.key === 'End' ? list.length - 1 : (i + step + list.length) % list.length;
      if (target.closest('#hand')) for (const b of list) b.tabIndex = b === list[j] ? 0 : -1;
      list[j].focus();
      event.preventDefault();
      return;
    }
    const id = LETTERS[event.key.toLowerCase()];
    if (!id || !currentModel() || $('mine').hidden) return;
    event.preventDefault();
    const button = $(id);
    if (button.disabled || button.hidden) { showError(t('notPossible')); return; }
    button.click();
  });

  // --- colours: the four-colour deck and high contrast (?colours=four&contrast=high, or the toggles) ---
  function setTheme(kind, on) {
    document.body.classList.toggle(kind === 'colours' ? 'four' : 'high', on);
    $(kind + '-toggle').setAttribute('aria-pressed', on ? 'true' : 'false');
    const query = new URLSearchParams(location.search);
    if (on) query.set(kind, kind === 'colours' ? 'four' : 'high'); else query.delete(kind);
    const search = query.toString();
    history.replaceState(null, '', location.pathname + (search ? '?' + search : '') + location.hash);
  }
  for (const kind of ['colours', 'contrast']) {
    const button = $(kind + '-toggle');
    button.textContent = t(kind);
    button.addEventListener('click', () => setTheme(kind, button.getAttribute('aria-pressed') !== 'true'));
    setTheme(kind, params.get(kind) === (kind === 'colours' ? 'four' : 'high'));
  }

  // --- the log, the banner, the status line ------------------------------------------------------
  function addLog(said) {
    const log = $('log');
    const item = el('div', 'said');  // appended only: the live region reads each new line once
    // the server's sentence names the players itself; a learner's own moves stand out
    if (typeof said.seat === 'number' && state.table && said.seat === state.table.you) item.classList.add('own');
    if (typeof said.seat !== 'number') item.classList.add('news');
    item.append(el('span', 'text', said.text));
    log.append(item);
    while (log.children.length > 300) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  function drawBanner(table, view) {
    const banner = $('banner');
    const now = Date.now();
    if (table.hand_over || table.match_over) {
      const key = table.hands + (table.match_over ? 'm' : 'h');
      if (state.bannerFor !== key) { state.bannerFor = key; state.bannerShownAt = now; }
      if (state.bannerClosed === key) { banner.hidden = true; return; }
      $('banner-title').textContent = table.match_over ? t('matchOver') : t('handOver');
      const lines = [];
      if (view && typeof view.winner === 'number') lines.push(t('winsHand', { name: handSeatName(view.winner) }));
      if (table.match_over && table.winner !== null && table.winner !== undefined) {
        lines.push(Array.isArray(table.winner)
          ? t('tie', { names: table.winner.map(seatName).join(', ') })
          : t('winsMatch', { name: seatName(table.winner) }));
      }
      $('banner-text').textContent = lines.join(' ');
      $('banner-caption').textContent = t('scores');
      const body = $('banner-scores').tBodies[0];
      body.replaceChildren();
      const order = table.seats.map((s) => s.seat).sort((a, b) => (table.scores[b] || 0) - (table.scores[a] || 0));
      for (const s of order) {
        const row = el('tr');
        row.append(el('th', null, seatName(s)), el('td', null, String(table.scores[s] ?? '')));
        if (s === table.you) row.classList.add('me');
        body.append(row);
      }
      $('banner-next').textContent = table.match_over ? '' : t('nextHand');
      $('banner-close').textContent = t('close');
      banner.hidden = false;
      banner.dataset.key = key;
    } else if (!banner.hidden) {
      // a new hand: keep the result up a few seconds so that everyone can read it
      const left = state.bannerShownAt + 5000 - now;
      if (left <= 0) banner.hidden = true;
      else setTimeout(() => { if (!state.table.hand_over) banner.hidden = true; }, left);
      $('banner-next').textContent = '';
    }
  }
  $('banner-close').addEventListener('click', () => {
    state.bannerClosed = $('banner').dataset.key;
    $('banner').hidden = true;
  });

  function drawStatus(table, view, mine) {
    // a refused move's reason stays until the next accepted move (the table's count moves on)
    if (state.errorN !== null && table.n <= state.errorN) return;
    state.errorN = null;
    if (Date.now() < state.errorUntil) return;
    if (!view) { setStatus(''); return; }
    if (view.over) { setStatus(''); return; }
    if (table.model) {  // a seat: the model's sentence ("Your turn.", "Wait: Ben is to move.")
      setStatus(table.model.status, table.model.my_turn ? 'turn' : undefined);
    } else {
      setStatus(t('waitFor', { name: handSeatName(view.to_move) }));
    }
  }
  function setStatus(text, kind, sticky) {
    const status = $('status');
    status.textContent = text;
    status.className = 'status' + (kind ? ' ' + kind : '');
    if (sticky) state.errorUntil = Infinity;
  }
  function showError(text) {
    setStatus(text, 'error');
    state.errorN = state.table ? state.table.n : -1;
  }

  // --- start --------------------------------------------------------------------------------------
  $('join-title').textContent = t('joinTitle', { code: CODE });
  $('join-name-label').textContent = t('yourName');
  $('join-personal-label').textContent = t('personalCode');
  $('join-button').textContent = t('sitDown');
  $('leave').textContent = t('leave');
  $('felt-title').textContent = t('felt');
  $('log-title').textContent = t('log');
  $('lobby-link').href = BASE;
  document.documentElement.lang = LANG;
  if (WATCH) { document.documentElement.classList.add('projector'); document.body.classList.add('projector'); }
  if (!CODE) { stopWith(t('unknownTable', { code: '' })); return; }
  state.token = WATCH ? null : storedToken();
  if (!WATCH && !state.token) showJoin();
  connect();
}());
