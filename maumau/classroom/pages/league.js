// The class league's pages: send a bot from the form (over /league/ws), step through a replay.
// The pages are whole without this script: it only adds the sending and the stepping.
"use strict";

(function () {
  function socketUrl() {
    var at = location.pathname.indexOf("/league/");
    var prefix = at >= 0 ? location.pathname.slice(0, at) : "";
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + prefix + "/league/ws";
  }

  function enterForm(form) {
    var words = JSON.parse(form.dataset.words);
    var status = document.getElementById("enter-status");
    var file = document.getElementById("bot-file");
    var source = document.getElementById("bot-source");
    var name = document.getElementById("bot-name");
    var token = document.getElementById("bot-token");
    var personal = document.getElementById("bot-personal");  // a server with a roster: the learner's code
    var key = "maumau-league-" + form.dataset.code + "-";
    if (name && token) {
      name.addEventListener("change", function () {
        token.value = localStorage.getItem(key + name.value) || "";
      });
    }
    file.addEventListener("change", function () {
      if (file.files.length) { file.files[0].text().then(function (text) { source.value = text; }); }
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      status.textContent = words.checking;
      var ws = new WebSocket(socketUrl());
      ws.onopen = function () {
        ws.send(JSON.stringify({type: "enter", code: form.dataset.code, source: source.value,
                                name: name ? name.value : null, token: token && token.value ? token.value : null,
                                personal: personal && personal.value.trim() ? personal.value.trim() : null}));
      };
      ws.onmessage = function (message) {
        var answer = JSON.parse(message.data);
        if (answer.type === "entered") {
          if (answer.token && name) { localStorage.setItem(key + answer.name, answer.token); token.value = answer.token; }
          status.textContent = words.entered.replace("{name}", answer.name).replace("{version}", answer.version)
            .replace("{token}", answer.token || "—");
        } else {
          status.textContent = answer.message;
        }
        ws.close();
      };
      ws.onerror = function () { status.textContent = "connection failed"; };
    });
  }

  function replay(data) {
    var board = document.getElementById("board");
    var step = document.getElementById("step");
    var at = data.steps.length - 1;
    function show() {
      var s = data.steps[at];
      var w = data.words;
      step.textContent = (at === 0 ? w.deal : w.move_n.replace("{n}", at).replace("{total}", data.steps.length - 1)
                          + ": " + s.who + ": " + s.say);
      board.textContent = "";
      var top = document.createElement("p");
      top.textContent = w.top + ": " + s.top + " · " + w.stock + ": " + s.stock;
      board.appendChild(top);
      var list = document.createElement("ul");
      list.className = "hands";
      data.names.forEach(function (name, seat) {
        var item = document.createElement("li");
        item.textContent = name + ": " + (s.hands[seat] || "—");
        list.appendChild(item);
      });
      board.appendChild(list);
      document.getElementById("prev").disabled = at === 0;
      document.getElementById("next").disabled = at === data.steps.length - 1;
    }
    document.getElementById("prev").addEventListener("click", function () { if (at > 0) { at -= 1; show(); } });
    document.getElementById("next").addEventListener("click", function () {
      if (at < data.steps.length - 1) { at += 1; show(); }
    });
    document.getElementById("replay").addEventListener("keydown", function (event) {
      if (event.key === "ArrowLeft" && at > 0) { at -= 1; show(); }
      if (event.key === "ArrowRight" && at < data.steps.length - 1) { at += 1; show(); }
    });
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("enter");
    if (form && form.tagName === "FORM") { enterForm(form); }
    var data = document.getElementById("replay-data");
    if (data) { replay(JSON.parse(data.textContent)); }
  });
})();
