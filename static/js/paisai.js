/* Behaviour shared by every page, kept out of the HTML so that the Content-Security-Policy
   allows no inline script: data-autosubmit submits its form on change, data-print prints, and
   every deadline (templates/_deadline.html: <time class="countdown">) counts down beside its
   time, against the server's clock (data-now) rather than the phone's (clock.js). */
(function () {
  document.addEventListener("change", function (event) {
    var field = event.target.closest && event.target.closest("[data-autosubmit]");
    if (field && field.form) field.form.submit();
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) window.print();
  });

  var deadlines = document.querySelectorAll("time.countdown[datetime]");
  if (!deadlines.length || !window.paisaiClock) return;
  var NEAR = 600;  // seconds: a deadline this close is marked near
  var items = Array.prototype.map.call(deadlines, function (el) {
    var label = document.createElement("span");
    label.className = "countdown-left";
    el.appendChild(document.createTextNode(" "));
    el.appendChild(label);
    return {el: el, label: label,
            clock: new window.paisaiClock.Countdown(el.getAttribute("datetime"), el.dataset.now)};
  });
  function tick() {
    items.forEach(function (item) {
      var seconds = item.clock.secondsLeft();
      var past = seconds <= 0;
      item.label.textContent = "(" + (past ? item.el.dataset.past : item.el.dataset.left + " " + item.clock.text(true)) + ")";
      item.el.classList.toggle("past", past);
      item.el.classList.toggle("near", !past && seconds <= NEAR);
    });
  }
  tick();
  setInterval(tick, 1000);
})();

/* Tables wider than the screen stack on phones (issue 24): a table that would scroll
   sideways inside its .table-wrap becomes table.stack (paisai.css), each cell labelled with
   its column's heading, checked again when the window changes size. */
(function () {
  var PHONE = 600;
  function label(table) {
    var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return (th.innerText || th.textContent || "").trim();
    });
    if (!heads.length) return;
    table.querySelectorAll("tbody tr").forEach(function (row) {
      Array.prototype.forEach.call(row.children, function (cell, i) {
        if (!cell.hasAttribute("data-label") && heads[i]) cell.setAttribute("data-label", heads[i]);
      });
    });
  }
  function fit() {
    document.querySelectorAll(".table-wrap > table").forEach(function (table) {
      var wrap = table.parentElement;
      if (table.dataset.stacked === "auto") {
        if (window.innerWidth > PHONE) { table.classList.remove("stack"); delete table.dataset.stacked; }
        return;
      }
      if (window.innerWidth <= PHONE && !table.classList.contains("stack") &&
          table.scrollWidth > wrap.clientWidth + 1) {
        label(table);
        table.classList.add("stack");
        table.dataset.stacked = "auto";
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fit);
  else fit();
  window.addEventListener("resize", fit);
})();
