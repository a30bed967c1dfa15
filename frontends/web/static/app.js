// The web client's entry: the language, then the view the path asks for.
//   /                the lobby (or, with ?table=ID, that table's game for the seat kept here)
//   /join/CODE       an invite: exchanged for a seat token (POST /api/join), then the game
//   /watch/CODE      a spectator's view of the table with that watch code

import { clear, el } from "./dom.js";
import { LANGS, chooseLanguage, language, languageNames, loadLanguage, remember, t } from "./i18n.js";
import { showLobby, joinByCode } from "./lobby.js";
import { Game } from "./game.js";

const main = document.getElementById("main");
let view = null;

function languageSwitch() {
  const select = document.querySelector("[data-testid=lang]");
  const names = languageNames();
  clear(select);
  for (const code of LANGS) {
    select.append(el("option", { value: code, selected: code === language() }, names[code] || code));
  }
  select.setAttribute("aria-label", t("Language"));
  select.onchange = async () => {
    remember(select.value);
    await loadLanguage(select.value);
    languageSwitch();
    route(true);
  };
}

export function navigate(path) {
  history.pushState(null, "", path);
  route();
}

function route(relabel = false) {
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  if (view && relabel && view.relabel) {
    view.relabel();
    return;
  }
  if (view && view.close) view.close();
  view = null;
  clear(main);
  const watch = path.match(/^\/watch\/([^/]+)\/?$/);
  const join = path.match(/^\/join\/([^/]+)\/?$/);
  if (watch) {
    view = new Game(main, { watch: decodeURIComponent(watch[1]) });
  } else if (join) {
    joinByCode(main, decodeURIComponent(join[1]), (table) => {
      history.replaceState(null, "", `/?table=${encodeURIComponent(table)}`);
      route();
    });
  } else if (params.get("table")) {
    view = new Game(main, { table: params.get("table"), onLeave: () => navigate("/") });
  } else {
    view = showLobby(main, (table) => navigate(`/?table=${encodeURIComponent(table)}`));
  }
}

async function start() {
  try {
    await loadLanguage(chooseLanguage());
  } catch (error) {
    await loadLanguage("en").catch(() => {});
  }
  languageSwitch();
  window.addEventListener("popstate", () => route());
  route();
}

start();
