/* The one countdown clock of the pages (issue 29): the time left until a moment, counted on
   the server's clock rather than the device's, and written the same way everywhere.

   Used by every deadline (paisai.js: <time class="countdown">), the find-my-table page
   (find_table.js) and the projector (projector.js). A page gives the moment and the server's
   "now" (from the page, or from the clock API it reads every few seconds); this module keeps
   the difference between the two clocks, counts, and formats "1:05:09" / "05:09". */
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }

  // seconds as h:mm:ss, or mm:ss under an hour (minutes padded unless `short`: "5:09")
  function format(seconds, short) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    return (h ? h + ":" + pad(m) : (short ? String(m) : pad(m))) + ":" + pad(s);
  }

  // the server's clock minus this device's, from the server's "now" (0 when unreadable)
  function skewOf(serverNow) {
    var skew = Date.parse(serverNow) - Date.now();
    return isNaN(skew) ? 0 : skew;
  }

  // A countdown to `endsAt` (an ISO time, or NaN/"" for none) on the server's clock.
  function Countdown(endsAt, serverNow) {
    this.set(endsAt, serverNow);
  }
  Countdown.prototype.set = function (endsAt, serverNow) {
    this.at = endsAt ? Date.parse(endsAt) : NaN;
    if (serverNow !== undefined) { this.skew = skewOf(serverNow); }
    else if (this.skew === undefined) { this.skew = 0; }
  };
  // whole seconds left (may be negative: past), or null when there is no end
  Countdown.prototype.secondsLeft = function () {
    if (isNaN(this.at)) { return null; }
    return Math.round((this.at - (Date.now() + this.skew)) / 1000);
  };
  // "05:09", never below zero; "--:--" without an end
  Countdown.prototype.text = function (short) {
    var left = this.secondsLeft();
    return left === null ? "--:--" : format(Math.max(0, left), short);
  };
  // the device's time `ms` as the server's hh:mm:ss
  Countdown.prototype.serverTime = function (ms) {
    var d = new Date(ms + this.skew);
    return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds());
  };

  // Read the clock API now and every `seconds`; `answer(c)` gets each JSON answer
  // ({now, ends_at, status, ...}) after the countdown was set from it.
  Countdown.prototype.follow = function (url, seconds, answer) {
    var self = this;
    function read() {
      fetch(url, {headers: {"Accept": "application/json"}, cache: "no-store"})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (c) {
          if (!c) { return; }
          self.set(c.ends_at, c.now);
          if (answer) { answer(c); }
        })
        .catch(function () {});  // offline: keep counting with what is known
    }
    read();
    return setInterval(read, seconds * 1000);
  };

  window.paisaiClock = {pad: pad, format: format, skewOf: skewOf, Countdown: Countdown};
})();
