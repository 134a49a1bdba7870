// One seat at a class table, or the projector: talks to the server's /ws, draws what it is sent.
// Every text from the server (names, narration) goes into the page with textContent, never as HTML.
'use strict';

(function () {
  // --- the page's own words (one place, to translate later) -----------------------------------
  const TEXT = {
    en: {
      title: 'Mau-Mau table', table: 'Table', projector: 'projector', teacherView: 'teacher view (open hands)',
      joinTitle: 'Sit down at table {code}', yourName: 'Your name', sitDown: 'Sit down',
      connecting: 'connecting…', connected: 'connected', offline: 'connection lost, trying again…',
      leave: 'Leave the table', leaveSure: 'Leave this table? Your seat goes to a computer (or, in Makao, you leave the match).',
      felt: 'The table', yourHand: 'Your hand', you: 'you', log: 'What happened',
      stock: 'Stock: {n}', discard: 'Pile', cards: '{n} cards', card: '1 card', score: 'score {n}',
      toMove: 'to move', dealer: 'dealer', computer: 'computer', computerHolds: 'a computer plays for now',
      away: 'away', open: 'open seat', waiting: 'joins next hand', left: 'left', notInHand: 'not in this hand',
      draw: 'Draw', take: 'Take {n}', pass: 'Pass', mau: 'Say “{call}”',
      playable: 'playable', notPlayable: 'not playable', justDrawn: 'just drawn',
      yourTurn: 'Your turn.', yourTurnPending: 'Your turn: {pending}.', waitFor: 'Waiting for {name}.',
      notNow: '{card} cannot be played now.', notYourTurn: 'It is not your turn.',
      choose: 'How do you play {card}?', cancel: 'Cancel', alone: '{cards}', together: '{cards} together',
      wishes: 'wish {wish}', runde: 'open a Runde', mauToo: 'and say “{call}”',
      wish: 'Wish: {wish}', pending: 'Pending: {text}', pendingFor: '{text} (for {name})',
      direction: 'Direction: {dir}', clockwise: 'clockwise ↻', anticlockwise: 'anticlockwise ↺',
      waitingPlayers: 'Waiting for players: {taken} of {all} seats taken.',
      waitingStart: 'Waiting for the teacher to start the table.',
      handOver: 'Hand over', matchOver: 'Match over', winsHand: '{name} wins the hand.', winsMatch: '{name} wins the match.',
      tie: 'A tie: {names}.', nextHand: 'The next hand is dealt in a moment…', scores: 'Scores', close: 'OK',
      stale: 'The table changed just now: look again and choose.',
      closed: 'The teacher closed this table.', replaced: 'This seat was opened in another window.',
      badToken: 'Your seat was not found; sit down again.', unknownTable: 'There is no open table with the code {code}.',
      hands: 'hand {n}', suits: { C: 'Clubs', D: 'Diamonds', H: 'Hearts', S: 'Spades' },
      ranks: { J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' }, joker: 'Joker', of: '{rank} of {suit}',
      keys: 'Keys', keysHelp: '← → choose a card · Enter or Space plays it · D draw · P pass · M say “{call}” · Esc closes a choice',
      colours: 'Four colours', contrast: 'High contrast', notPossible: 'That is not possible now.',
    },
  };
  Object.assign(TEXT, window.MAUMAU_WORDS || {});  // German and Hungarian (table-words.js)
  const params = new URLSearchParams(location.search);
  const LANG = ['en', 'de', 'hu'].includes(params.get('lang')) ? params.get('lang') : 'en';
  const WORDS = Object.assign({}, TEXT.en, TEXT[LANG] || {});
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
    return c.joker ? '🃏' : c.rank + SYMBOL[c.suit];
  }
  function cardName(text) {
    const c = parseCard(text);
    if (c.joker) return WORDS.joker;
    return t('of', { rank: WORDS.ranks[c.rank] || c.rank, suit: WORDS.suits[c.suit] });
  }
  function wishName(wish) {
    if (SYMBOL[wish]) return SYMBOL[wish] + ' ' + WORDS.suits[wish];
    return WORDS.ranks[wish] || wish;
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
    ws: null, ids: 1, table: null, seat: null, token: null, joined: false, retry: 0, stop: false,
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
    if (!name) return;
    try { localStorage.setItem('maumau.name', name); } catch (e) { /* none */ }
    if (!send({ type: 'join', code: CODE, name, lang: LANG }, answered)) {
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
    if (view.wish) facts.append(fact('wish', t('wish', { wish: wishName(view.wish) })));
    if (view.pending) {
      const text = view.pending.text || view.pending.kind + ' ' + view.pending.amount;
      const who = typeof view.pending.target === 'number' ? handSeatName(view.pending.target) : null;
      facts.append(fact('pending', t('pending', { text: who ? t('pendingFor', { text, name: who }) : text })));
    }
    for (const told of view.memory_text || []) facts.append(fact('memory', told));
    if (view.hand_sizes.length > 2) {
      facts.append(fact('direction', t('direction', { dir: view.direction === 1 ? t('clockwise') : t('anticlockwise') })));
    }
  }
  function fact(kind, text) {
    return el('li', 'fact ' + kind, text);
  }

  // --- the learner's own hand -------------------------------------------------------------------
  function legalPlays(view) {
    return (view.legal || []).filter((m) => Array.isArray(m.play));
  }
  function optionsFor(view, card) {
    const plays = legalPlays(view);
    let options = plays.filter((m) => m.play[0] === card);
    if (!options.length) options = plays.filter((m) => m.play.includes(card));
    const seen = new Set();
    return options.filter((m) => {
      const key = JSON.stringify([m.play, m.wish || null, !!m.runde]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  function drawMine(table, view) {
    const mine = $('mine');
    mine.hidden = !view;
    if (!view) { hideChooser(); return; }
    const myTurn = !view.over && (view.legal || []).length > 0;
    if (!myTurn) { state.mau = false; hideChooser(); }
    $('mine-title').textContent = t('yourHand') + ' (' + (view.hand.length === 1 ? t('card') : t('cards', { n: view.hand.length })) + ')';
    const hand = $('hand');
    const had = focusedCard();  // the redraw replaces every card: the focus must not fall to the page's top
    hand.replaceChildren();
    let drawnMarked = false;
    for (const card of view.hand) {
      const options = myTurn ? optionsFor(view, card) : [];
      const button = el('button', 'card hand-card');
      button.type = 'button';
      fillFace(button, card);
      const drawn = !drawnMarked && view.drawn === card;
      if (drawn) { drawnMarked = true; button.classList.add('drawn'); }
      const parts = [cardName(card), options.length ? t('playable') : t('notPlayable')];
      if (drawn) parts.push(t('justDrawn'));
      button.setAttribute('aria-label', parts.join(', '));
      button.dataset.card = card;
      if (options.length) button.classList.add('playable');
      else { button.classList.add('unplayable'); button.setAttribute('aria-disabled', 'true'); }
      button.addEventListener('click', () => { state.lastCard = { card, index: hand.children.length }; chooseCard(card); });
      button.tabIndex = -1;
      hand.append(button);
    }
    rove(had);
    const drawMove = (view.legal || []).find((m) => m.draw);
    const passMove = (view.legal || []).find((m) => m.pass);
    const pending = view.pending && view.pending.kind === 'draw' && view.pending.target === view.seat ? view.pending : null;
    $('draw').textContent = pending && pending.amount > 1 ? t('take', { n: pending.amount }) : t('draw');
    $('draw').disabled = !drawMove;
    $('pass').textContent = t('pass');
    $('pass').disabled = !passMove;
    $('pass').hidden = !passMove && !(view.legal || []).length;
    state.call = callWord(table.variant);
    const mau = $('mau');
    mau.textContent = t('mau', { call: state.call });
    $('keys').textContent = t('keys') + ': ' + t('keysHelp', { call: state.call });
    mau.disabled = !myTurn || !legalPlays(view).length;
    mau.setAttribute('aria-pressed', state.mau && !mau.disabled ? 'true' : 'false');
  }
  function callWord(variant) {
    return variant === 'makao' ? 'Makaó' : variant === 'lite_macau' ? 'Macau' : 'Mau';
  }

  function currentView() {
    const table = state.table;
    return table && table.view && typeof table.view.seat === 'number' ? table.view : null;
  }

  function chooseCard(card) {
    const view = currentView();
    if (!view) return;
    if (view.over || !(view.legal || []).length) { showError(t('notYourTurn')); return; }
    const options = optionsFor(view, card);
    // not playable now: the server says why, in the engine's words and this page's language
    if (!options.length) { sendMove({ play: [card] }); return; }
    if (options.length === 1) { sendMove(options[0]); return; }
    showChooser(card, options);
  }

  function describeMove(move) {
    const cards = move.play.map(cardSymbol).join(' + ');
    const parts = [move.play.length > 1 ? t('together', { cards }) : t('alone', { cards })];
    if (move.wish) parts.push(t('wishes', { wish: wishName(move.wish) }));
    if (move.runde) parts.push(t('runde'));
    return parts.join(', ');
  }

  function showChooser(card, options) {
    const box = $('chooser');
    $('chooser-title').textContent = t('choose', { card: cardSymbol(card) });
    const list = $('chooser-options');
    list.replaceChildren();
    for (const move of options) {
      const button = el('button', 'option', describeMove(move));
      button.type = 'button';
      if (move.wish && SYMBOL[move.wish]) button.classList.add('wish-' + colourClass('2' + move.wish), 'suit-' + move.wish);
      button.addEventListener('click', () => { hideChooser(); sendMove(move); });
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

  function sendMove(legal) {
    const table = state.table;
    if (!table) return;
    let move;
    if (legal.play) {
      move = { play: legal.play.slice() };
      if (legal.wish) move.wish = legal.wish;
      if (legal.runde) move.runde = true;
      if (legal.mau && state.mau) move.mau = true;  // without it the engine takes the card and the penalty (C-8)
    } else {
      move = legal.draw ? { draw: true } : { pass: true };
    }
    state.mau = false;
    send({ type: 'move', move, seq: table.n }, (answer) => {
      if (answer.type === 'error') showError(answer.code === 'stale' ? t('stale') : answer.message);
    });
  }

  $('draw').addEventListener('click', () => {
    const view = currentView();
    const move = view && (view.legal || []).find((m) => m.draw);
    if (move) sendMove(move);
  });
  $('pass').addEventListener('click', () => {
    const view = currentView();
    const move = view && (view.legal || []).find((m) => m.pass);
    if (move) sendMove(move);
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
    if (!id || !currentView() || $('mine').hidden) return;
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
    if (mine && (mine.legal || []).length) {
      const pending = mine.pending && mine.pending.target === mine.seat ? mine.pending.text : null;
      setStatus(pending ? t('yourTurnPending', { pending }) : t('yourTurn'), 'turn');
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
