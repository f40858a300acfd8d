// Sevens: deadlines in the reader's time zone, and live odds on the order forms.
// Everything works without this script; it only adds convenience.
"use strict";

function localTimes() {
  document.querySelectorAll("time[datetime]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (!isNaN(when)) { el.textContent = when.toLocaleString(); }
  });
}

function percent(x) { return (100 * x).toFixed(1) + "%"; }

function describe(data) {
  var parts = ["Your order " + data.order.force + "+" + data.order.flair + ": expected " +
    data.expected_points + " points, " + data.scrum_left + " SCRUM left."];
  data.against.forEach(function (row) {
    var tail = row.draw !== undefined ? " draw " + percent(row.draw) : " level " + percent(row.level);
    parts.push("v " + row.bot + " (" + row.order.force + "+" + row.order.flair + "): win " +
      percent(row.win) + tail + " loss " + percent(row.loss));
  });
  return parts.join(" · ");
}

function watchOdds(form) {
  var out = form.querySelector("output.odds");
  var timer = null;
  function update() {
    var force = form.elements.force.value || "0";
    var flair = form.elements.flair.value || "0";
    var url = form.dataset.odds + "?team=" + encodeURIComponent(form.dataset.team) +
      "&force=" + encodeURIComponent(force) + "&flair=" + encodeURIComponent(flair);
    fetch(url, { credentials: "same-origin" }).then(function (response) {
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (result) {
      out.textContent = result.ok ? describe(result.body) : (result.body.detail || "no odds for this order");
      out.classList.toggle("error", !result.ok);
    }).catch(function () { out.textContent = "odds unavailable"; });
  }
  form.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(update, 250);
  });
  update();
}

document.addEventListener("DOMContentLoaded", function () {
  localTimes();
  document.querySelectorAll("form.order-form[data-odds]").forEach(watchOdds);
});
