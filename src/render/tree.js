// The tree picture's own script (plain JavaScript, no network): click a dashed box to open
// what it folds as a panel below it (click it again, or the panel's background, to close), zoom with the wheel or the + and -
// buttons/keys, drag to pan, 0 to reset, / or the find button to highlight nodes by cell (G7).
(function () {
  var svg = document.documentElement;
  var view = document.getElementById('view');
  var status = document.getElementById('status');
  var vb = svg.getAttribute('viewBox').split(' ').map(Number);
  var W = vb[2], H = vb[3];
  var s = 1, tx = 0, ty = 0, drag = null;
  function apply() {
    view.setAttribute('transform', 'translate(' + tx + ' ' + ty + ') scale(' + s + ')');
  }
  function scale() {
    var r = svg.getBoundingClientRect();
    return r.width ? W / r.width : 1;
  }
  function zoom(k, px, py) {
    tx = px - (px - tx) * k;
    ty = py - (py - ty) * k;
    s *= k;
    apply();
  }
  // Grow the picture downwards so that an open panel fits (a page of its own grows).
  function grow() {
    var bottom = H;
    var open = document.querySelectorAll('g[data-panel]:not([display])');
    for (var i = 0; i !== open.length; i++) {
      var p = open[i];
      var h = +p.firstElementChild.getAttribute('height');
      bottom = Math.max(bottom, (+p.getAttribute('data-y') + h) * s + ty + 20);
    }
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + bottom);
    svg.setAttribute('height', bottom);
  }
  function offset(g) {
    var host = g.parentNode.closest('g[data-panel]');
    return host ? [+host.getAttribute('data-x'), +host.getAttribute('data-y')] : [0, 0];
  }
  function close(p) {
    p.setAttribute('display', 'none');
    var inner = p.querySelectorAll('[data-opens]');
    for (var i = 0; i !== inner.length; i++) {
      var q = document.getElementById(inner[i].getAttribute('data-opens'));
      if (q) close(q);
    }
  }
  function toggle(g) {
    var p = document.getElementById(g.getAttribute('data-opens'));
    if (!p) return;
    if (!p.hasAttribute('display')) {
      close(p);
    } else {
      var r = g.querySelector('rect');
      var o = offset(g);
      var pw = +p.getAttribute('data-w');
      var x = Math.max(0, Math.min(o[0] + +r.getAttribute('x'), W - pw));
      var y = o[1] + +r.getAttribute('y') + +r.getAttribute('height') + 6;
      // Below its box, or higher up when the picture cannot grow (an <object> keeps its size);
      // a click on a panel's background closes it.
      var ph = +p.firstElementChild.getAttribute('height');
      if (y + ph > H && ph + 4 < H) y = Math.max(0, H - ph - 4);
      p.setAttribute('data-x', x);
      p.setAttribute('data-y', y);
      p.setAttribute('transform', 'translate(' + x + ' ' + y + ')');
      p.removeAttribute('display');
      p.parentNode.appendChild(p);
    }
    grow();
  }
  function clear() {
    var old = document.querySelectorAll('.hit, .inside');
    for (var i = 0; i !== old.length; i++) old[i].classList.remove('hit', 'inside');
    status.textContent = '';
  }
  function find(q) {
    clear();
    q = (q || '').trim().toUpperCase();
    if (!/^[A-I][1-9]$/.test(q)) {
      if (q) status.textContent = 'a cell is a column A-I and a row 1-9, e.g. G7';
      return;
    }
    var re = new RegExp('(^|[^A-Z0-9])' + q + '(:|[^0-9]|$)');
    var groups = document.querySelectorAll('#view g[class]');
    var shown = 0, folded = 0;
    for (var i = 0; i !== groups.length; i++) {
      var g = groups[i], text = '';
      var t = g.querySelectorAll('text');
      for (var k = 0; k !== t.length; k++) text += t[k].textContent + ' ';
      if (!re.test(text)) continue;
      g.classList.add('hit');
      var host = g.closest('g[data-panel]');
      if (host && host.hasAttribute('display')) folded++; else shown++;
      // Mark the folded boxes that lead to it.
      while (host) {
        var opener = document.querySelector('[data-opens="' + host.id + '"]');
        if (!opener) break;
        opener.classList.add('inside');
        host = opener.closest('g[data-panel]');
      }
    }
    status.textContent = q + ': ' + shown + ' shown, ' + folded + ' folded (outlined boxes lead to them)';
  }
  svg.addEventListener('click', function (e) {
    var a = e.target.closest('[data-act]');
    if (a) {
      var act = a.getAttribute('data-act');
      if (act === 'in') zoom(1.25, W / 2, 0);
      if (act === 'out') zoom(0.8, W / 2, 0);
      if (act === 'fit') { s = 1; tx = 0; ty = 0; apply(); }
      if (act === 'find') find(window.prompt('Find nodes by cell (e.g. G7):', ''));
      return;
    }
    var g = e.target.closest('[data-opens]');
    if (g) toggle(g);
    else if (e.target.parentNode.hasAttribute('data-panel')) { close(e.target.parentNode); grow(); }
  });
  svg.addEventListener('wheel', function (e) {
    e.preventDefault();
    var r = svg.getBoundingClientRect(), k = scale();
    zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, (e.clientX - r.left) * k, (e.clientY - r.top) * k);
  }, { passive: false });
  svg.addEventListener('mousedown', function (e) {
    if (e.target.closest('[data-opens], [data-act]')) return;
    drag = [e.clientX, e.clientY, tx, ty];
  });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    var k = scale();
    tx = drag[2] + (e.clientX - drag[0]) * k;
    ty = drag[3] + (e.clientY - drag[1]) * k;
    apply();
  });
  window.addEventListener('mouseup', function () { drag = null; });
  window.addEventListener('keydown', function (e) {
    if (e.key === '+' || e.key === '=') zoom(1.25, W / 2, 0);
    else if (e.key === '-') zoom(0.8, W / 2, 0);
    else if (e.key === '0') { s = 1; tx = 0; ty = 0; apply(); }
    else if (e.key === '/' || e.key === 'f') { e.preventDefault(); find(window.prompt('Find nodes by cell (e.g. G7):', '')); }
    else if (e.key === 'Escape') clear();
  });
})();
