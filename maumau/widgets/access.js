// Keyboard and screen reader at the card table (maumau/widgets/access.py says why this exists).
// One instance per view: it finds the view's root (.mm-table) around its own element and works there.

const MOVES = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
const TYPING = 'input, textarea, select, [contenteditable="true"], [contenteditable=""]';

function shown(node) {
  return !!node && node.isConnected && node.getClientRects().length > 0;
}

function usable(root, selector) {
  return Array.from(root.querySelectorAll(selector)).filter((b) => shown(b) && !b.disabled);
}

function setLabel(node, name, value) {
  if (value && node.getAttribute(name) !== value) node.setAttribute(name, value);
}

function table(root, model) {
  const cards = () => Array.from(root.querySelectorAll('.mm-hand .mm-card')).filter(shown);
  const actions = () => usable(root, '.mm-actions button');
  // Where the focus was in this table: the element, its zone, its place, the card's text.
  const was = { node: null, zone: '', index: 0, text: '', handIndex: 0, handText: '' };
  let inside = false;      // the focus is in the table (or was lost by a redraw, not by the learner)
  let wishOpen = false;
  let resultOpen = false;
  let scheduled = false;

  function zoneOf(node) {
    if (node.closest('.mm-hand')) return 'hand';
    if (node.closest('.mm-wishes')) return 'wish';
    if (node.closest('.mm-actions')) return 'actions';
    if (node.closest('.mm-result-box')) return 'result';
    return 'other';
  }

  function remember(node) {
    const zone = zoneOf(node);
    was.node = node;
    was.zone = zone;
    was.text = node.textContent;
    if (zone === 'hand') {
      was.handIndex = Math.max(0, cards().indexOf(node));
      was.handText = node.textContent;
    } else if (zone === 'actions') {
      was.index = Math.max(0, actions().indexOf(node));
    }
  }

  function focus(node) {
    if (!node) return false;
    node.focus({ preventScroll: false });
    return document.activeElement === node;
  }

  /** The card to focus in the hand: the same card if it is still there, else the one now at its place. */
  function handTarget() {
    const hand = cards();
    if (!hand.length) return null;
    const same = hand.filter((c) => c.textContent === was.handText);
    if (same.length) {
      return same.reduce((a, b) => (Math.abs(hand.indexOf(b) - was.handIndex)
        < Math.abs(hand.indexOf(a) - was.handIndex) ? b : a));
    }
    return hand[Math.min(was.handIndex, hand.length - 1)];
  }

  function restore() {
    const wish = usable(root, '.mm-wishes button');
    if (wish.length) return focus(wish[0]);
    if (was.zone === 'actions') {
      const acts = actions();
      if (acts.length) return focus(acts[Math.min(was.index, acts.length - 1)]);
    }
    if (focus(handTarget())) return true;
    const result = usable(root, '.mm-result-box button');
    if (result.length) return focus(result[0]);
    return focus(actions()[0]) || focus(usable(root, 'button')[0]);
  }

  function roving() {
    // One tab stop for the hand: the card last focused (or the first playable one); arrows move within.
    const hand = cards();
    if (!hand.length) return;
    const current = hand.find((c) => c === document.activeElement) || (was.handText ? handTarget() : null)
      || hand.find((c) => c.classList.contains('mm-legal')) || hand[0];
    for (const card of hand) card.tabIndex = card === current ? 0 : -1;
  }

  function name() {
    const labels = model.get('labels') || {};
    for (const node of root.querySelectorAll('.mm-label-from-title')) setLabel(node, 'aria-label', node.title);
    for (const [selector, key, role] of [['.mm-hand', 'hand', 'group'], ['.mm-actions', 'actions', 'group'],
      ['.mm-opponents', 'players', 'group'], ['.mm-wishes', 'wish', 'group']]) {
      for (const node of root.querySelectorAll(selector)) {
        setLabel(node, 'role', role);
        setLabel(node, 'aria-label', labels[key]);
      }
    }
    for (const node of root.querySelectorAll('.widget-html.mm-msg')) {
      setLabel(node, 'role', 'status');
      setLabel(node, 'aria-live', 'polite');
    }
    for (const handle of root.querySelectorAll('[role=slider]')) {
      // ipywidgets' slider handle has no name: its label's text, else the view's word for it
      const box = handle.closest('.widget-slider');
      const label = box && box.querySelector('label.widget-label');
      const text = label && label.textContent.trim() ? label.textContent.trim() : labels.slider;
      if (!handle.getAttribute('aria-labelledby')) setLabel(handle, 'aria-label', text);
    }
    for (const node of root.querySelectorAll('.widget-toggle-button')) {
      setLabel(node, 'aria-pressed', node.classList.contains('mod-active') ? 'true' : 'false');
    }
  }

  function refresh() {
    scheduled = false;
    if (!root.isConnected) return;
    name();
    const wishNow = usable(root, '.mm-wishes button').length > 0;
    const resultNow = usable(root, '.mm-result-box button').length > 0;
    const active = document.activeElement;
    // a button that went disabled (Draw, once drawn) keeps the focus but no longer gets the keys
    const here = active && root.contains(active) && shown(active) && active !== root && !active.disabled;
    if (inside && wishNow && !wishOpen) {
      focus(usable(root, '.mm-wishes button')[0]);       // a wish card asks: the answer is one key away
    } else if (inside && resultNow && !resultOpen && !(here && zoneOf(active) === 'result')) {
      focus(usable(root, '.mm-result-box button')[0]);   // the hand is over: "next hand" is one key away
    } else if (inside && !here) {
      restore();                                          // the redraw took the focused button away
    }
    wishOpen = wishNow;
    resultOpen = resultNow;
    roving();
  }

  function later() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(refresh);
  }

  function step(list, node, by, key) {
    const i = list.indexOf(node);
    if (i < 0 || !list.length) return;
    let j = key === 'Home' ? 0 : key === 'End' ? list.length - 1 : (i + by + list.length) % list.length;
    if (j === i && list.length === 1) j = 0;
    focus(list[j]);
  }

  function onKey(event) {
    const target = event.target;
    if (!(target instanceof Element) || target.closest(TYPING)) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;   // Shift+Enter runs the cell, as ever
    const key = event.key;
    const zone = zoneOf(target);
    const onButton = target.closest('button') !== null;  // a slider's handle keeps its own arrows
    if ((key in MOVES || key === 'Home' || key === 'End') && onButton && ['hand', 'actions', 'wish'].includes(zone)) {
      const list = zone === 'hand' ? cards() : zone === 'actions' ? actions() : usable(root, '.mm-wishes button');
      step(list, target.closest('button') || target, MOVES[key] || 0, key);
      event.preventDefault();
    } else if (key in MOVES || key === 'Home' || key === 'End') {
      // the slider or the scrolling log use them; the notebook must not move its cell selection
    } else if (key === 'Enter' || key === ' ') {
      // the button's own click (Enter, Space) plays; only the notebook must not hear the key
      if (!target.closest('button')) return;
    } else if (key === 'Escape') {
      const wish = usable(root, '.mm-wishes button');
      if (!wish.length) return;
      wish[wish.length - 1].click();                  // the last one is "Cancel"
    } else if (key.length === 1) {
      const letter = key.toLowerCase();
      if ((model.get('letters') || []).includes(letter)) model.send({ type: 'key', key: letter });
      // every other letter too stays in the table: "x" or "d d" must not cut or delete the notebook's cell
    } else {
      return;
    }
    if (key === 'Escape' || (key.length === 1 && key !== ' ')) event.preventDefault();
    event.stopPropagation();
  }

  function onFocusIn(event) {
    inside = true;
    if (event.target instanceof Element && event.target !== root) remember(event.target);
  }

  function onFocusOut(event) {
    const next = event.relatedTarget;
    if (next && root.contains(next)) return;
    const left = event.target;
    // Gone because the learner went elsewhere, or because a redraw removed or hid the element?
    setTimeout(() => { if (shown(left) && document.activeElement !== left) inside = false; }, 0);
  }

  const observer = new MutationObserver(later);
  observer.observe(root, { subtree: true, childList: true, attributes: true,
    attributeFilter: ['class', 'style', 'title', 'disabled'] });
  root.addEventListener('keydown', onKey);
  root.addEventListener('focusin', onFocusIn);
  root.addEventListener('focusout', onFocusOut);
  model.on('change:labels', later);
  later();
  return () => {
    observer.disconnect();
    root.removeEventListener('keydown', onKey);
    root.removeEventListener('focusin', onFocusIn);
    root.removeEventListener('focusout', onFocusOut);
  };
}

function render({ model, el }) {
  let stop = null;
  let tries = 0;
  // The view's root exists once this element is in the page; until then, look again shortly.
  const find = () => {
    const root = el.closest('.mm-table');
    if (root) { stop = table(root, model); return; }
    if (tries++ < 200) setTimeout(find, 50);
  };
  find();
  return () => { if (stop) stop(); };
}

export default { render };
