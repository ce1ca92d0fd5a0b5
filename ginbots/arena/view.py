"""A recorded game as one self-contained HTML page to step through (``ginbots view``).

Reads the JSON Lines traces ``ginbots match --trace`` writes and turns each
event into a frame: both hands drawn as cards (melds grouped, deadwood shown),
the face-up card, the stock count, the decision, melds, layoffs and scores.
The page needs no network: styles, script and frames are inline. Arrow keys
step, Page Up / Page Down jump between hands, Home / End go to either end.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from ginbots.game.cards import CARD_NAMES, cards_of, parse_card
from ginbots.game.melds import melded_and_rest, min_deadwood

from .schema import parse_record
from .trace import dealt_hands, follow_hand


class TraceProblem(ValueError):
    """A trace line or game that cannot be shown: names the file, the line and what is wrong."""


def read_games(path: str | Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The whole game records of a trace file, and one message per line that is not one."""
    games, problems = [], []
    try:
        lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise TraceProblem(f"{path}: cannot be read: {exc.strerror or exc}") from None
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = parse_record(line, "game record")
        except ValueError as exc:
            problems.append(f"{path}:{lineno}: {exc}")
            continue
        try:
            record["_frames"] = frames_of(record)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            problems.append(f"{path}:{lineno}: game cannot be replayed for viewing: {type(exc).__name__}: {exc}")
            continue
        record["_line"] = lineno
        games.append(record)
    return games, problems


def _layout(hand: int) -> list[list[str]]:
    """The hand as groups of card names: each meld of one optimal meld set, then the deadwood."""
    melds, rest_mask = melded_and_rest(hand)
    groups = [[CARD_NAMES[c] for c in cards_of(meld)] for meld in melds]
    rest = [CARD_NAMES[c] for c in sorted(cards_of(rest_mask), key=lambda c: (c % 13, c // 13))]
    return groups + ([rest] if rest else [])


def frames_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One frame per event of every hand of a game record (and one per deal)."""
    names = list(record.get("players") or ["seat 0", "seat 1"])
    frames: list[dict[str, Any]] = []
    scores = [0, 0]
    for number, hand in enumerate(record["hands"], 1):
        held = dealt_hands(hand, number)
        pile = [parse_card(hand["upcard"])]
        stock = 31
        taking = [False, False]
        declared: list[list[list[str]]] = [[], []]
        melds_seen = 0

        def frame(text: str, actor: int | None = None) -> None:
            frames.append({
                "hand": number, "text": text, "actor": actor, "names": names,
                "hands": [_layout(held[0]), _layout(held[1])],
                "deadwood": [min_deadwood(held[0]), min_deadwood(held[1])],
                "up": CARD_NAMES[pile[-1]] if pile else None, "stock": stock, "scores": list(scores),
                "melds": [list(m) for m in declared],
            })

        frame(f"Hand {number}: {names[hand.get('starting_player', 0)]} starts; upcard {hand['upcard']}")
        for e, held in follow_hand(hand, number):
            kind, p = e["e"], e.get("p")
            if kind == "offer":
                taking[p] = bool(e["take"])
                frame(f"{names[p]} {'takes' if e['take'] else 'declines'} the face-up {e['card']}", p)
            elif kind == "draw":
                card = parse_card(e["card"])
                if taking[p] and pile and pile[-1] == card:
                    pile.pop()
                    where = "the face-up"
                else:
                    stock -= 1
                    where = "the stock:"
                taking[p] = False
                frame(f"{names[p]} draws {where} {e['card']}", p)
            elif kind == "discard":
                pile.append(parse_card(e["card"]))
                frame(f"{names[p]} discards {e['card']}", p)
            elif kind == "melds":
                declared[p] = [list(m) for m in e["melds"]]
                what = "knocks with" if melds_seen == 0 else "declares"
                melds_seen += 1
                shown = " ".join("[" + " ".join(m) + "]" for m in declared[p]) or "no melds"
                frame(f"{names[p]} {what} {shown}", p)
            elif kind == "layoff":
                frame(f"{names[p]} lays off {e['card']} onto [{' '.join(e.get('onto', []))}]", p)
            elif kind == "scores":
                scores = list(e["scores"])
                frame(f"Scores {scores[0]} - {scores[1]}")
            elif kind == "cancel":
                frame(f"Hand cancelled: {e.get('reason', '')}")
            elif kind == "forfeit":
                frame(f"Forfeit: {e.get('reason', e.get('detail', ''))}", p)
    if record.get("winner") is not None and frames:
        frames[-1] = {**frames[-1], "text": frames[-1]["text"] + f" — {names[record['winner']]} wins the game"}
    return frames


_STYLE = """
body{font-family:system-ui,sans-serif;background:#0b5d3b;color:#f4f4f4;margin:0;padding:18px}
h1{font-size:18px;margin:0 0 8px} .bar{display:flex;gap:18px;align-items:center;margin:8px 0}
.seat{background:#0a4d31;border-radius:10px;padding:10px;margin:10px 0}
.seat.actor{outline:3px solid #ffd54a} .name{font-weight:600;margin-bottom:6px}
.group{display:inline-flex;gap:4px;margin-right:14px;padding:3px;border-radius:6px}
.group.meld{background:#14704a}
.card{width:38px;height:54px;background:#fff;color:#111;border-radius:5px;display:flex;flex-direction:column;
 align-items:center;justify-content:center;font-weight:700;font-size:16px;box-shadow:0 1px 2px #0006}
.card.red{color:#c62828} .card small{font-size:18px;line-height:16px}
.table{display:flex;gap:20px;align-items:center} .pile .card{width:44px;height:62px}
#text{font-size:17px;min-height:24px;margin:8px 0;color:#fff59d}
button{font-size:15px;padding:4px 10px} .dim{color:#b7d7c6;font-size:13px}
"""

_SCRIPT = """
// Every text from the trace reaches the page through textContent or an attribute set by the DOM,
// never as markup: a name that is markup (an image tag with onerror, say) shows as its characters.
const F = JSON.parse(document.getElementById('frames').textContent);
let i = 0;
const start = location.hash.match(/step=(\\d+)/);  // game.html#step=40 opens at step 40
if (start) i = Math.max(0, Math.min(F.length - 1, Number(start[1]) - 1));
const SUIT = {C:'\\u2663', H:'\\u2665', S:'\\u2660', D:'\\u2666'};
function el(tag, cls, text){ const e = document.createElement(tag); if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text); return e; }
function card(name){ name = String(name); const r = name[0]==='T' ? '10' : name[0], s = name[1];
  const d = el('div', 'card' + (s==='H'||s==='D' ? ' red' : '')); d.title = name;
  d.append(r, el('small', '', SUIT[s] || '?')); return d; }
function groups(hand, melds){ return hand.map((g,k) => { const sp = el('span', 'group' + (k<melds ? ' meld' : ''));
  g.forEach(c => sp.append(card(c))); return sp; }); }
function show(){
  const f = F[i];
  document.getElementById('where').textContent = `hand ${f.hand} · step ${i+1} of ${F.length}`;
  document.getElementById('text').textContent = f.text;
  document.getElementById('up').replaceChildren(f.up ? card(f.up) : el('span', 'dim', 'none'));
  document.getElementById('stock').textContent = f.stock;
  document.getElementById('scores').textContent = `${f.names[0]} ${f.scores[0]} – ${f.scores[1]} ${f.names[1]}`;
  for (const p of [0,1]) {
    const melds = f.hands[p].length - (f.deadwood[p] > 0 ? 1 : 0);
    const seat = document.getElementById('seat'+p);
    seat.className = 'seat' + (f.actor === p ? ' actor' : '');
    const declared = f.melds[p].length ? ` · declared ${f.melds[p].map(m=>'['+m.join(' ')+']').join(' ')}` : '';
    seat.replaceChildren(el('div', 'name', `${f.names[p]} (seat ${p}) · deadwood ${f.deadwood[p]}${declared}`),
                         ...groups(f.hands[p], melds));
  }
}
function go(k){ i = Math.max(0, Math.min(F.length-1, k)); show(); }
function hand(d){ const h = F[i].hand + d; const k = F.findIndex(f=>f.hand===h); if (k>=0) go(k); }
document.addEventListener('keydown', e => {
  if (e.key==='ArrowRight'||e.key===' ') go(i+1); else if (e.key==='ArrowLeft') go(i-1);
  else if (e.key==='PageDown') hand(1); else if (e.key==='PageUp') hand(-1);
  else if (e.key==='Home') go(0); else if (e.key==='End') go(F.length-1); });
show();
"""


def render(game: dict[str, Any], title: str) -> str:
    """The self-contained page of one game record (from ``read_games``)."""
    # Inside <script type="application/json"> no '<' may appear at all: "</script>" would end the
    # block and "<!--" would change how the browser reads the rest. \u003c is the same JSON string.
    frames = json.dumps(game["_frames"], separators=(",", ":")).replace("<", "\\u003c")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title><style>{_STYLE}</style></head>
<body>
<h1>{html.escape(title)}</h1>
<div class="bar"><button onclick="go(i-1)">&larr; back</button><button onclick="go(i+1)">next &rarr;</button>
<button onclick="hand(-1)">previous hand</button><button onclick="hand(1)">next hand</button>
<span id="where" class="dim"></span><span class="dim">keys: &larr; &rarr; PgUp PgDn Home End</span></div>
<div id="text"></div>
<div class="seat" id="seat1"></div>
<div class="table"><div class="pile"><div class="dim">face-up</div><div id="up"></div></div>
<div><div class="dim">stock</div><div id="stock" style="font-size:22px"></div></div>
<div><div class="dim">scores</div><div id="scores"></div></div></div>
<div class="seat" id="seat0"></div>
<script id="frames" type="application/json">{frames}</script>
<script>{_SCRIPT}</script>
</body></html>
"""


def view(trace: str | Path, out: str | Path | None = None, game: int | None = None) -> tuple[Path, list[str]]:
    """Write the page of game ``game`` (its ``game`` field, else its position; default the first whole one).

    Returns the page's path and the problems found in the trace (each naming file and line).
    """
    games, problems = read_games(trace)
    if not games:
        raise TraceProblem(f"{trace}: no whole game to show" + (f" ({problems[0]})" if problems else ""))
    if game is None:
        chosen = games[0]
    else:
        chosen = next((g for g in games if g.get("game") == game), None)
        if chosen is None and 0 <= game < len(games) and all("game" not in g for g in games):
            chosen = games[game]
        if chosen is None:
            raise TraceProblem(f"{trace}: no whole game {game} (whole games: "
                               f"{', '.join(str(g.get('game', k)) for k, g in enumerate(games))})")
    players = chosen.get("players") or ["seat 0", "seat 1"]
    title = f"{players[0]} vs {players[1]} — game {chosen.get('game', games.index(chosen))} of {Path(trace).name}"
    path = Path(out) if out else Path(trace).with_suffix(".html")
    path.write_text(render(chosen, title), encoding="utf-8")
    return path, problems
