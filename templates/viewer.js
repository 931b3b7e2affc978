// The step-through viewer: one chain line at a time, with ←/→ and the Prev/Next buttons. Without
// JavaScript every step stays listed and the links between lines and steps still work.
(function () {
  "use strict";
  var viewer = document.getElementById("viewer");
  if (!viewer) { return; }
  var steps = viewer.querySelectorAll("li.step");
  if (steps.length === 0) { return; }
  var controls = viewer.querySelector(".controls");
  var counter = viewer.querySelector(".counter");
  var prev = viewer.querySelector("button.prev");
  var next = viewer.querySelector("button.next");
  var current = 0;
  document.documentElement.classList.add("js");
  controls.hidden = false;

  function stepOf(hash) {
    var m = /^#step-(\d+)$/.exec(hash || "");
    var n = m ? parseInt(m[1], 10) : 0;
    return n >= 1 && n <= steps.length ? n - 1 : -1;
  }
  function show(i) {
    steps[current].classList.remove("current");
    current = Math.max(0, Math.min(steps.length - 1, i));
    steps[current].classList.add("current");
    counter.textContent = "step " + (current + 1) + " of " + steps.length;
    prev.disabled = current === 0;
    next.disabled = current === steps.length - 1;
  }
  function go(i) {
    show(i);
    history.replaceState(null, "", "#step-" + (current + 1));
  }
  function reveal(el) {
    for (var e = el; e; e = e.parentElement) {
      if (e.tagName === "DETAILS") { e.open = true; }
    }
  }
  prev.addEventListener("click", function () { go(current - 1); });
  next.addEventListener("click", function () { go(current + 1); });
  document.addEventListener("keydown", function (ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) { return; }
    var t = ev.target && ev.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") { return; }
    if (ev.key === "ArrowRight") { go(current + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { go(current - 1); ev.preventDefault(); }
  });
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest && ev.target.closest("a[href^='#']");
    if (!a) { return; }
    var hash = a.getAttribute("href");
    var i = stepOf(hash);
    if (i >= 0) {
      // A hidden step cannot be scrolled to: show it, then bring the viewer into view.
      ev.preventDefault();
      show(i);
      history.pushState(null, "", hash);
      viewer.scrollIntoView();
    } else {
      var target = document.getElementById(hash.slice(1));
      if (target) { reveal(target); }
    }
  });
  function fromLocation() {
    var i = stepOf(location.hash);
    if (i >= 0) { show(i); viewer.scrollIntoView(); return; }
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target) { reveal(target); target.scrollIntoView(); }
  }
  window.addEventListener("hashchange", fromLocation);
  window.addEventListener("popstate", fromLocation);
  show(0);
  if (location.hash) {
    fromLocation();
    // Pictures above may change the layout while they load: scroll again once they are in.
    window.addEventListener("load", fromLocation);
  }
}());

// The moves of a line's derivation, one at a time: each picture of the proof by contradiction
// has one SVG group per move (class "move", data-move its number) and its contradiction (class
// "end"); move k shows the groups up to k, the contradiction at the last move. "," and "." step
// the selected line (the last one clicked, the first to begin with). Without JavaScript every
// move is drawn and listed.
(function () {
  "use strict";
  var boxes = document.querySelectorAll("#contradiction-proof .derivation[data-moves]");
  if (boxes.length === 0) { return; }
  var hint = document.querySelector("#contradiction-proof .move-keys");
  if (hint) { hint.hidden = false; }
  var selected = null;

  function stepper(box) {
    var total = parseInt(box.getAttribute("data-moves"), 10);
    var groups = box.querySelectorAll("svg .move");
    var ends = box.querySelectorAll("svg .end");
    var items = box.querySelectorAll("ol.moves li.move");
    var counter = box.querySelector(".move-counter");
    var prev = box.querySelector("button.move-prev");
    var next = box.querySelector("button.move-next");
    var state = { box: box, at: 0 };
    function show(k) {
      var i;
      state.at = Math.max(0, Math.min(total, k));
      for (i = 0; i < groups.length; i++) {
        var n = parseInt(groups[i].getAttribute("data-move"), 10);
        groups[i].classList.toggle("later", n > state.at);
        groups[i].classList.toggle("now", n === state.at);
      }
      for (i = 0; i < ends.length; i++) {
        ends[i].classList.toggle("later", state.at < total);
      }
      for (i = 0; i < items.length; i++) {
        var m = parseInt(items[i].getAttribute("data-move"), 10);
        items[i].classList.toggle("now", m === state.at || (state.at === total && m === total + 1));
      }
      counter.textContent = "move " + state.at + " of " + total;
      prev.disabled = state.at === 0;
      next.disabled = state.at === total;
    }
    state.show = show;
    box.querySelector(".move-controls").hidden = false;
    prev.addEventListener("click", function () { select(state); show(state.at - 1); });
    next.addEventListener("click", function () { select(state); show(state.at + 1); });
    box.closest("li").addEventListener("click", function () { select(state); });
    show(0);
    return state;
  }
  function select(state) {
    if (selected) { selected.box.closest("li").classList.remove("selected"); }
    selected = state;
    selected.box.closest("li").classList.add("selected");
  }
  var states = [];
  for (var i = 0; i < boxes.length; i++) { states.push(stepper(boxes[i])); }
  select(states[0]);
  document.addEventListener("keydown", function (ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) { return; }
    var t = ev.target && ev.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA" || t === "SELECT") { return; }
    if (ev.key === ".") { selected.show(selected.at + 1); ev.preventDefault(); }
    else if (ev.key === ",") { selected.show(selected.at - 1); ev.preventDefault(); }
  });
}());
