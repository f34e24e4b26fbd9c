// Tooltips, navigation, the filter and printing. Text from the log is only
// ever assigned with textContent, never parsed as HTML.
(function () {
  "use strict";
  var tip = document.getElementById("tip");
  function show(e) {
    var t = e.target.closest("[data-tip]");
    if (!t) { tip.hidden = true; return; }
    tip.textContent = t.getAttribute("data-tip");
    tip.hidden = false;
    var x = e.clientX + 14, y = e.clientY + 14;
    var w = tip.offsetWidth, h = tip.offsetHeight;
    if (x + w > window.innerWidth - 8) x = e.clientX - w - 14;
    if (y + h > window.innerHeight - 8) y = e.clientY - h - 14;
    tip.style.left = x + "px";
    tip.style.top = y + "px";
  }
  document.addEventListener("mousemove", show);
  document.addEventListener("mouseleave", function () { tip.hidden = true; });
  // A <title> child would show a second, native tooltip on top of ours.
  document.querySelectorAll("[data-tip] > title").forEach(function (t) { t.remove(); });

  function openFrame(id) {
    var d = document.getElementById(id);
    if (d && d.tagName === "DETAILS") { d.open = true; d.scrollIntoView({ block: "start" }); }
  }

  // The filter: every [data-find] item (fix card, frame, graph break) whose
  // text holds all the typed words stays; in a frame, so do the compile rows
  // that hold them (all rows when its heading or only its reasons do). The
  // text searched is what names things (frames, files, causes, culprits,
  // compile ids), not logged tracebacks, code or advice, which mention
  // every file on the stack.
  var box = document.getElementById("find"), count = document.getElementById("find-count");
  var items = Array.prototype.slice.call(document.querySelectorAll("[data-find]"));
  var PROSE = "pre, .advice, .detail, details.older, details.as-logged, a.editor";
  function searchable(el) {
    var copy = el.cloneNode(true);
    copy.querySelectorAll(PROSE).forEach(function (p) { p.remove(); });
    return copy.textContent.toLowerCase();
  }
  var texts = new Map();
  items.forEach(function (el) {
    texts.set(el, searchable(el));
    var head = el.querySelector("summary");
    if (head) texts.set(head, searchable(head));
    el.querySelectorAll("[data-find-row]").forEach(function (r) { texts.set(r, searchable(r)); });
  });
  function holds(el, words) {
    var text = texts.get(el);
    return words.every(function (w) { return text.indexOf(w) >= 0; });
  }
  function filter() {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
    items.forEach(function (el) {
      var hit = !words.length || holds(el, words);
      el.hidden = !hit;
      if (hit) shown++;
      var head = el.querySelector("summary");
      var rows = Array.prototype.slice.call(el.querySelectorAll("[data-find-row]"));
      var whole = !words.length || !hit || (head && holds(head, words));
      var rowHits = rows.filter(function (r) { return whole || holds(r, words); });
      if (!rowHits.length) rowHits = rows;
      rows.forEach(function (r) { r.hidden = rowHits.indexOf(r) < 0; });
      // A frame that matches inside is opened to show why, and closed again
      // when the filter is cleared.
      if (el.tagName === "DETAILS") {
        if (words.length && hit && !el.open) { el.open = true; el.setAttribute("data-found-open", ""); }
        if (!words.length && el.hasAttribute("data-found-open")) { el.open = false; el.removeAttribute("data-found-open"); }
      }
    });
    count.textContent = words.length ? shown + " of " + items.length + " shown" : "";
  }
  if (box) {
    box.parentNode.hidden = false;
    box.addEventListener("input", filter);
    box.addEventListener("keydown", function (e) { if (e.key === "Escape") { box.value = ""; filter(); } });
    document.addEventListener("keydown", function (e) {
      if (e.key === "/" && !/^(INPUT|TEXTAREA)$/.test(document.activeElement.tagName)) { e.preventDefault(); box.focus(); }
    });
  }

  // A bar click opens its frame and marks (and scrolls to) its compile's row.
  // A frame compiled on several ranks is one section: a row stands for the
  // ranks listed in its data-ranks.
  function markCompile(anchor, compile, rank) {
    var frame = document.getElementById(anchor);
    if (!frame) return;
    var row = null;
    frame.querySelectorAll("tr[data-compile]").forEach(function (r) {
      var ranks = r.getAttribute("data-ranks");
      var ofRank = rank === null || ranks === null || ranks.split(" ").indexOf(rank) >= 0;
      if (!row && ofRank && r.getAttribute("data-compile") === compile) row = r;
    });
    if (box && box.value && (frame.hidden || (row && row.hidden))) { box.value = ""; filter(); }
    document.querySelectorAll("tr.hit").forEach(function (r) { r.classList.remove("hit"); });
    if (frame.tagName === "DETAILS") frame.open = true;
    try { history.replaceState(null, "", "#" + anchor); } catch (e) { /* a page opened where history is refused */ }
    if (row) { row.classList.add("hit"); row.scrollIntoView({ block: "center" }); } else { frame.scrollIntoView({ block: "start" }); }
  }
  document.querySelectorAll("svg .bar[data-anchor]").forEach(function (b) {
    b.addEventListener("click", function () { markCompile(b.getAttribute("data-anchor"), b.getAttribute("data-compile"), b.getAttribute("data-rank")); });
  });
  window.addEventListener("hashchange", function () { openFrame(location.hash.slice(1)); });
  if (location.hash) openFrame(location.hash.slice(1));
  document.querySelectorAll("[data-expand]").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var open = btn.getAttribute("data-expand") === "1";
      document.querySelectorAll("details.frame").forEach(function (d) { d.open = open; });
    });
  });
  // Printed, every collapsed section shows (the stylesheet does the same
  // where the browser supports ::details-content); restored afterwards.
  var closedForPrint = [];
  window.addEventListener("beforeprint", function () {
    closedForPrint = Array.prototype.filter.call(document.querySelectorAll("details"), function (d) { return !d.open; });
    closedForPrint.forEach(function (d) { d.open = true; });
  });
  window.addEventListener("afterprint", function () {
    closedForPrint.forEach(function (d) { d.open = false; });
    closedForPrint = [];
  });
  document.body.setAttribute("data-ready", "1");
})();
