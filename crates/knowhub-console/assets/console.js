// KnowHub console: keyboard review and the edit toggle. No inline script anywhere (the CSP
// forbids it); this file is the only script the pages load.
"use strict";
(function () {
  function items() { return Array.prototype.slice.call(document.querySelectorAll("article.item")); }
  function current() { return document.querySelector("article.item.current") || items()[0] || null; }
  function select(el) {
    items().forEach(function (i) { i.classList.toggle("current", i === el); });
    if (el) { el.scrollIntoView({ block: "nearest" }); }
  }
  function openEdit(item) {
    var f = item.querySelector("form.edit-form");
    if (!f) { return; }
    f.hidden = false;
    var first = f.querySelector("[name=task]");
    if (first) { first.focus(); }
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("button.edit");
    if (b) { var it = b.closest("article.item"); select(it); openEdit(it); }
    var a = e.target.closest && e.target.closest("article.item");
    if (a && !a.classList.contains("current")) { select(a); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) { return; }
    var t = e.target;
    if (t && t.closest && t.closest("input, textarea, select")) {
      if (e.key === "Escape") { t.blur(); }
      return;
    }
    var cur = current();
    if (!cur) { return; }
    var list = items(), i = list.indexOf(cur), form;
    switch (e.key) {
      case "j": select(list[Math.min(i + 1, list.length - 1)]); break;
      case "k": select(list[Math.max(i - 1, 0)]); break;
      case "a": form = cur.querySelector("form.approve"); if (form) { form.requestSubmit(); } break;
      case "e": openEdit(cur); break;
      case "r": var r = cur.querySelector("form.reject [name=reason]"); if (r) { r.focus(); } break;
      case "m": form = cur.querySelector(".nearest form.merge"); if (form) { form.requestSubmit(); } break;
      default: return;
    }
    e.preventDefault();
  });
  document.addEventListener("DOMContentLoaded", function () {
    var first = items()[0];
    if (first && !document.querySelector("article.item.current")) { first.classList.add("current"); }
  });
})();
