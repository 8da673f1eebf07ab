// The list of games on this server (GET /api/games, docs/online.md), each linking to its
// page; read again every few seconds.

const $ = (id) => document.getElementById(id);

function cell(row, text, className = "") {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}

function outcome(result) {
  if (!result) return "";
  const winner = result.winner || result.side;
  return winner === "draw" ? "draw" : winner ? `${winner} won` : "over";
}

function render(games) {
  const box = $("games");
  box.innerHTML = "";
  if (!games.length) {
    box.innerHTML = '<p class="empty">No games yet: make one with <code>rulefront online new URL MAP</code>.</p>';
    return;
  }
  const table = document.createElement("table");
  table.className = "games";
  table.innerHTML = "<thead><tr><th>game</th><th>map</th><th>ruleset</th><th>actions</th>"
    + "<th>state</th><th>seats connected</th><th>spectators</th></tr></thead>";
  const body = document.createElement("tbody");
  const sorted = [...games].sort((a, b) => b.created - a.created);
  for (const game of sorted) {
    const row = document.createElement("tr");
    const link = document.createElement("a");
    link.href = `/watch/${encodeURIComponent(game.game)}`;
    link.textContent = game.game;
    link.className = "game-link";
    cell(row, "").appendChild(link);
    cell(row, game.map.split("/").pop().replace(/\.png$/, ""));
    cell(row, game.ruleset);
    cell(row, String(game.commands));
    cell(row, game.result ? `finished: ${outcome(game.result)}` : `${game.to_play} to play`,
         game.result ? "" : game.to_play);
    cell(row, game.present.join(", ") || "none");
    cell(row, String(game.spectators));
    body.appendChild(row);
  }
  table.appendChild(body);
  box.appendChild(table);
}

async function refresh() {
  try {
    const response = await fetch("/api/games");
    if (!response.ok) throw new Error(response.statusText);
    render(await response.json());
    $("connection").textContent = "";
  } catch (error) {
    $("connection").textContent = `cannot reach the server (${error.message}); trying again`;
  }
  setTimeout(refresh, 3000);
}

refresh();
