// Tooltips and navigation. Text from the log is only ever assigned with
// textContent, never parsed as HTML.
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
  document.querySelectorAll("svg .bar[data-anchor]").forEach(function (b) {
    b.addEventListener("click", function () { location.hash = b.getAttribute("data-anchor"); openFrame(b.getAttribute("data-anchor")); });
  });
  window.addEventListener("hashchange", function () { openFrame(location.hash.slice(1)); });
  if (location.hash) openFrame(location.hash.slice(1));
  document.querySelectorAll("[data-expand]").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var open = btn.getAttribute("data-expand") === "1";
      document.querySelectorAll("details.frame").forEach(function (d) { d.open = open; });
    });
  });
  document.body.setAttribute("data-ready", "1");
})();
