// The spectator page of one game (/watch/ID): live while it is played, a replay once
// it is over. The WebSocket (docs/online.md: `watch`) says when a command is played; the frames
// of those commands (the board's changes and the log in sentences, game/net/scenes.py) come
// from GET /api/games/ID/frames?from=N. Reconnects by itself, catching up from what it has.

import { Board, SpriteBook } from "/static/board.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").pop() || "");
const frames = [];        // frames[0].scene is the start; frames[n] is command n
let shown = 0;            // the frame on the board
let following = true;     // the board follows the latest frame
let playing = null;       // the replay timer
let board = null;
let boardAt = -1;         // the frame the board's things are at
let announced = 0;        // the latest command the server told of
let fetching = false;
let socket = null;
let present = [];

function say(text) {
  $("connection").textContent = text;
}

async function getFrames() {
  if (fetching) return;
  fetching = true;
  try {
    while (frames.length === 0 || announced > frames.length - 1) {
      const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/frames?from=${frames.length}`);
      if (!response.ok) throw new Error((await response.text()).trim() || response.statusText);
      const body = await response.json();
      if (frames.length === 0) start(body);
      const before = frames.length;
      for (const frame of body.frames) {
        if (frame.n === frames.length) frames.push(frame);
      }
      announced = Math.max(announced, frames.length - 1);
      if (frames.length > before) grew(before);
      if (frames.length === before) break;
    }
  } catch (error) {
    say(`cannot read the game: ${error.message}`);
  } finally {
    fetching = false;
  }
}

// A map as people call it: "maps/outpost.png" -> "outpost".
function mapName(map) {
  return map.split("/").pop().replace(/\.png$/, "");
}

function start(info) {
  $("title").textContent = `${mapName(info.map)} (${info.ruleset})`;
  document.title = `Rulefront - ${mapName(info.map)}`;
  present = info.present || [];
}

// New frames from `first` on: log lines, the slider, and the board if it follows.
function grew(first) {
  const log = $("log");
  for (let n = Math.max(1, first); n < frames.length; n++) {
    const frame = frames[n];
    const lines = frame.lines.length ? frame.lines : [frame.command];
    for (const text of lines) {
      const item = document.createElement("li");
      item.textContent = text;
      item.dataset.n = String(n);
      item.className = `line side-${frame.side}`;
      item.title = `${frame.side}: ${frame.command}`;
      log.appendChild(item);
    }
  }
  $("slider").max = String(frames.length - 1);
  document.body.dataset.frames = String(frames.length - 1);
  if (following) show(frames.length - 1);
  else showPosition();
}

function show(n) {
  shown = Math.max(0, Math.min(n, frames.length - 1));
  if (shown < boardAt || boardAt < 0) {
    board.reset(frames[0].scene);
    boardAt = 0;
  }
  while (boardAt < shown) board.apply(frames[++boardAt]);
  const status = board.status;
  if (status.size) {
    board.draw();
  } else {
    $("board").hidden = true;
    $("textboard").hidden = false;
    $("textboard").textContent = status.board;
  }
  $("board").dataset.actions = String(shown);
  $("describe").textContent = status.describe;
  const outcome = status.outcome;
  $("turn").innerHTML = "";
  const turn = document.createElement("span");
  if (outcome) {
    turn.textContent = "game over";
  } else {
    turn.textContent = `${status.side} to play`;
    turn.className = status.side;
  }
  $("turn").appendChild(turn);
  $("outcome").textContent = outcome
    ? (outcome.winner === "draw" ? `draw: ${outcome.reason}` : `${outcome.winner} wins: ${outcome.reason}`)
    : "";
  const rules = $("rules");
  rules.innerHTML = "";
  for (const rule of status.rules) {
    const item = document.createElement("li");
    item.textContent = rule;
    rules.appendChild(item);
  }
  if (!status.rules.length) rules.innerHTML = "<li>none</li>";
  seats(status);
  for (const item of $("log").children) {
    const at = Number(item.dataset.n);
    item.classList.toggle("future", at > shown);
    item.classList.toggle("current", at === shown);
  }
  const log = $("log");
  const current = log.querySelector("li.current");
  if (current) {  // the log alone scrolls, never the page
    const top = current.offsetTop - log.offsetTop;
    if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - current.offsetHeight) {
      log.scrollTop = top - log.clientHeight / 2;
    }
  }
  showPosition();
}

function seats(status) {
  const box = $("seats");
  box.innerHTML = "";
  for (const side of status.sides) {
    const line = document.createElement("div");
    line.className = side;
    line.textContent = `${side}: ${present.includes(side) ? "connected" : "away"}`;
    box.appendChild(line);
  }
}

function showPosition() {
  $("slider").value = String(shown);
  $("position").textContent = `action ${shown} of ${frames.length - 1}`;
  $("live").classList.toggle("on", following);
  $("play").textContent = playing ? "pause" : "play";
}

function jump(n) {
  following = n >= frames.length - 1 && !playing;
  show(n);
}

function togglePlay() {
  if (playing) {
    clearInterval(playing);
    playing = null;
  } else {
    if (shown >= frames.length - 1) show(0);
    following = false;
    playing = setInterval(() => {
      if (shown >= frames.length - 1) {
        togglePlay();
        following = true;
      } else {
        show(shown + 1);
      }
    }, 350);
  }
  showPosition();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws`);
  socket.onopen = () => {
    say("live");
    socket.send(JSON.stringify({ type: "watch", game: gameId, since: Math.max(0, frames.length - 1) }));
  };
  socket.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "played") {
      announced = Math.max(announced, data.n);
      getFrames();
    } else if (data.type === "joined") {
      announced = Math.max(announced, data.commands);
      say(data.result ? "finished: replay" : "live");
      getFrames();
    } else if (data.type === "presence") {
      present = data.present;
      if (board && board.status) seats(board.status);
    } else if (data.type === "ended") {
      say("finished: replay");
      getFrames();
    } else if (data.type === "error") {
      say(data.message);
    }
  };
  socket.onclose = () => {
    if ($("connection").textContent.startsWith("finished")) return;
    say("reconnecting...");
    setTimeout(connect, 1500);
  };
}

async function main() {
  if (!gameId) {
    say("no game given: open this page from the list of games");
    return;
  }
  board = new Board($("board"), await SpriteBook.load());
  $("first").onclick = () => { following = false; show(0); };
  $("back").onclick = () => { following = false; show(shown - 1); };
  $("forward").onclick = () => jump(shown + 1);
  $("live").onclick = () => { following = true; show(frames.length - 1); };
  $("play").onclick = togglePlay;
  $("slider").oninput = () => jump(Number($("slider").value));
  $("log").onclick = (event) => {
    const n = event.target.dataset && event.target.dataset.n;
    if (n !== undefined) jump(Number(n));
  };
  document.addEventListener("keydown", (event) => {
    const keys = { ArrowLeft: () => $("back").onclick(), ArrowRight: () => jump(shown + 1),
                   Home: () => $("first").onclick(), End: () => $("live").onclick(),
                   " ": togglePlay };
    if (keys[event.key] && event.target.tagName !== "INPUT") {
      event.preventDefault();
      keys[event.key]();
    }
  });
  window.addEventListener("resize", () => board.status && board.draw());
  await getFrames();
  connect();
}

main();
