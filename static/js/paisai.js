/* Behaviour shared by every page, kept out of the HTML so that the Content-Security-Policy
   allows no inline script: data-autosubmit submits its form on change, data-print prints. */
(function () {
  document.addEventListener("change", function (event) {
    var field = event.target.closest && event.target.closest("[data-autosubmit]");
    if (field && field.form) field.form.submit();
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) window.print();
  });
})();
