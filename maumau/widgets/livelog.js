// The log of moves as a live region (maumau/widgets/access.py): new sentences are appended, never
// redrawn, so that a screen reader reads each move once, as it happens (role="log" is polite).

const SHOWN = 80;

function render({ model, el }) {
  const title = document.createElement('b');
  title.id = 'mm-log-' + Math.random().toString(36).slice(2);
  const list = document.createElement('div');
  list.className = 'mm-log-lines';
  list.setAttribute('role', 'log');
  list.setAttribute('aria-live', 'polite');
  list.setAttribute('aria-labelledby', title.id);
  list.tabIndex = 0;  // it scrolls: a keyboard must be able to reach it (WCAG 2.1.1)
  el.append(title, list);
  let last = -1;      // the number of the last line shown

  function update() {
    title.textContent = model.get('title') || '';
    const lines = model.get('lines') || [];
    const end = lines.length ? lines[lines.length - 1][0] : -1;
    if (end < last) {  // cleared (a new match): start again
      list.replaceChildren();
      last = -1;
    }
    const fresh = lines.filter((line) => line[0] > last);
    if (!fresh.length) return;
    for (const old of list.querySelectorAll('.mm-new')) old.classList.remove('mm-new');
    for (const [n, kind, text] of fresh) {
      const row = document.createElement('div');
      row.className = (kind ? kind + ' ' : '') + 'mm-new';
      row.textContent = text;
      list.append(row);
      last = n;
    }
    while (list.children.length > SHOWN) list.firstChild.remove();
    list.dataset.n = String(last);  // how many lines were ever written (tests wait on it)
    list.scrollTop = list.scrollHeight;
  }

  model.on('change:lines', update);
  model.on('change:title', update);
  update();
  return () => {
    model.off('change:lines', update);
    model.off('change:title', update);
  };
}

export default { render };
