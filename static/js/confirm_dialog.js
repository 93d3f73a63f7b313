/* Confirmation dialogs and "select all" for forms that act on many things at once (loaded by
   every page, base.html; no inline script under the Content-Security-Policy).

   <form data-confirm="question" [data-confirm-list="name"] [data-confirm-empty="message"]
         data-confirm-ok="button" data-confirm-cancel="button">
   A submit opens a dialog with the question and, with data-confirm-list, one line per ticked
   box of that name (its data-name, else its aria-label): the chief sees every team or table the
   action will touch before it happens. Nothing ticked: data-confirm-empty is said and nothing
   is sent. The dialog's buttons are full-width and at least 44 px high on a phone.

   <input type="checkbox" data-select-all="name" [data-select-filter="attr"]> ticks or unticks
   every enabled box of that name in its form (only those carrying data-<attr> when given). */
(function () {
  "use strict";

  function boxes(form, name, filter) {
    return Array.prototype.filter.call(form.querySelectorAll("input[type=checkbox]"), function (box) {
      return box.name === name && !box.disabled && (!filter || box.hasAttribute("data-" + filter));
    });
  }

  document.addEventListener("change", function (event) {
    var all = event.target.closest && event.target.closest("input[data-select-all]");
    if (all) {
      var form = all.form || document;
      boxes(form, all.dataset.selectAll, all.dataset.selectFilter).forEach(function (box) {
        box.checked = all.checked;
      });
      return;
    }
    var box = event.target;
    if (box && box.type === "checkbox" && box.form) {  // a box unticked: "select all" is no more
      box.form.querySelectorAll("input[data-select-all]").forEach(function (head) {
        if (head.dataset.selectAll === box.name && !box.checked) { head.checked = false; }
      });
    }
  });

  function dialogFor(form, submitter) {
    var d = form.dataset, items = [];
    if (d.confirmList) {
      items = boxes(form, d.confirmList).filter(function (b) { return b.checked; }).map(function (b) {
        return b.dataset.name || b.getAttribute("aria-label") || b.value;
      });
      if (!items.length) { window.alert(d.confirmEmpty || d.confirm); return null; }
    }
    var dialog = document.createElement("dialog");
    dialog.className = "confirm-dialog";
    dialog.setAttribute("aria-labelledby", "confirm-dialog-question");
    var question = document.createElement("p");
    question.id = "confirm-dialog-question";
    question.className = "confirm-question";
    question.textContent = d.confirm + (items.length ? " (" + items.length + ")" : "");
    dialog.appendChild(question);
    if (items.length) {
      var list = document.createElement("ul");
      list.className = "confirm-items";
      items.forEach(function (text) {
        var li = document.createElement("li");
        li.textContent = text;
        list.appendChild(li);
      });
      dialog.appendChild(list);
    }
    var actions = document.createElement("div");
    actions.className = "confirm-actions";
    var ok = document.createElement("button");
    ok.type = "button"; ok.className = "confirm-ok"; ok.textContent = d.confirmOk || "OK";
    var cancel = document.createElement("button");
    cancel.type = "button"; cancel.className = "secondary confirm-cancel";
    cancel.textContent = d.confirmCancel || "Cancel";
    actions.appendChild(ok); actions.appendChild(cancel);
    dialog.appendChild(actions);
    ok.addEventListener("click", function () {
      ok.disabled = true;  // one tap, one submission
      dialog.close();
      form.dataset.confirmed = "1";
      if (form.requestSubmit) { form.requestSubmit(submitter || undefined); } else { form.submit(); }
    });
    cancel.addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("close", function () { dialog.remove(); });
    document.body.appendChild(dialog);
    return dialog;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.dataset || !form.dataset.confirm) { return; }
    if (form.dataset.confirmed === "1") { delete form.dataset.confirmed; return; }
    event.preventDefault();
    var dialog = dialogFor(form, event.submitter);
    if (!dialog) { return; }
    if (dialog.showModal) { dialog.showModal(); } else { dialog.setAttribute("open", ""); }
    dialog.querySelector(".confirm-ok").focus();
  }, true);
})();
