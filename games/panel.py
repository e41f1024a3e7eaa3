"""The game panel: everything one seat's page shows, built from `ruleset.view()` only.

Used by the HTTP views and the WebSocket consumer alike, so a live update and a page
load draw the same thing for the same seat.
"""
from __future__ import annotations

import hashlib
import json
import uuid

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import get_language

from accounts.models import RatingEvent

from . import presenters, shell
from .core import searching_bot_to_move
from .finishing import can_abort, ending_sentences
from .models import Game
from .presenters import name_seats  # noqa: F401  (games still importing it from here)
from .rematch import rematch_offer
from .translations import gettext as _, one_language, pgettext


def seat_names(game: Game) -> list[str]:
    return [seat.name for seat in game.ordered_seats()]


def panel_context(game: Game, user, **kwargs) -> dict:
    return seat_panel_context(game, game.seat_of(user), **kwargs)


@one_language()
def seat_panel_context(game: Game, seat: int | None, *, selection: str = "", message: str = "",
                       error: bool = False, oob: bool = False) -> dict:
    """What seat `seat` (None: a spectator) may see; the notifier renders it once per audience."""
    rules = game.rules
    view = rules.view(game.state, seat)
    to_act = game.to_act()
    legal = rules.legal_actions(game.state, seat) if seat is not None and seat in to_act else []
    names = seat_names(game)
    token = uuid.uuid4().hex
    scores = score_rows(game, view, names)
    history = numbered_history(game.game_slug, view, names)
    panel = {
        "game": game,
        "rules": rules,
        "seat": seat,
        "view": view,
        "legal": legal,
        "names": names,
        "seats": game.ordered_seats(),
        "to_act": to_act,
        "waiting_names": [names[i] for i in to_act if i != seat],
        "bot_thinking": searching_bot_to_move(game),  # the worker is making a level 4-5 bot's move
        "my_turn": seat is not None and seat in to_act,
        "selection": selection,
        "message": message,
        "error": error,
        "token": token,
        "version": game.version,
        "seat_turn": rules.seat_turn(game.state, seat) if seat is not None else "",
        "history": history,
        "last_event": history[-1]["text"] if history else "",
        "scores": scores,
        "winners": [row["name"] for row in scores if row["rank"] == 1],
        "winners_names": names_joined([row["name"] for row in scores if row["rank"] == 1]),
        "ending": ending_sentences(game),
        "can_undo": _can_undo(game, seat),
        "oob": oob,
    }
    panel.update(table_context(game, seat))
    panel["board_template"] = presenters.board_template(game.game_slug)
    panel.update(presenters.board_context(game.game_slug, panel))
    return panel


def numbered_history(slug: str, view: dict, names: list[str]) -> list[dict]:
    """The whole history, oldest first, each entry numbered (`number`, from 1) and with its
    turn when the game's events carry one: pages list it newest first in a scroll box."""
    entries = presenters.history(slug, view, names)
    labels: dict = {}                     # one "Turn N" per turn, not per entry
    for number, entry in enumerate(entries, start=1):
        entry["number"] = number
        # No second "Turn N" label when the game's sentence already starts with it.
        turn = entry["turn"]
        if turn is not None and turn not in labels:
            labels[turn] = turn_label(turn)
        entry["says_turn"] = turn is not None and entry["text"].startswith(labels[turn])
    return entries


def turn_label(turn) -> str:
    """ "Turn 3", as the history labels an entry (games/_history.html says the same)."""
    return _("Turn %(number)s") % {"number": turn}


def names_joined(names: list[str]) -> str:
    """ "Alice", "Alice and Bob", "Alice and Bob and Carol" (the winners of a game)."""
    if not names:
        return ""
    joined = names[0]
    for name in names[1:]:
        joined = pgettext("joining names", "%(names)s and %(name)s") % {"names": joined, "name": name}
    return joined


# Gold, silver and bronze discs drawn in CSS (site.css .medal-N): an emoji medal shows as an
# empty box where no emoji font is installed (issue 19, row 10).
MEDALS = {1: "medal-1", 2: "medal-2", 3: "medal-3"}


def clock_rows(game: Game, now=None) -> list[dict]:
    """Each seat's clock as the page draws it; the page's script only counts down from
    the server's figures (the server's time is the truth)."""
    now = now or timezone.now()
    rows = []
    for seat in game.ordered_seats():
        remaining = seat.remaining(now)
        user = seat.user
        rows.append({
            "seat": seat, "name": seat.name,
            "remaining": int(remaining.total_seconds()) if remaining is not None else None,
            "running": seat.running_since is not None and seat.running_since <= now,
            "paused_until": seat.running_since if seat.running_since and seat.running_since > now else None,
            "deadline": seat.deadline,
            "vacation_until": user.vacation_until if user is not None and user.on_vacation(now) else None,
        })
    return rows


def table_context(game: Game, seat_index: int | None) -> dict:
    """Clocks, the bot standing in for absent players, and the table's own actions."""
    seat = next((s for s in game.ordered_seats() if s.index == seat_index), None)
    if not hasattr(game, "_rematch_offer"):  # one query per game, not per audience's render
        game._rematch_offer = rematch_offer(game)
    offer = game._rematch_offer
    return {
        "clocks": clock_rows(game),
        "server_now": timezone.now(),
        "my_seat": seat,
        "can_take_back": bool(seat and game.is_active and seat.bot_since is not None and not seat.resigned),
        "can_resign": bool(seat and game.is_active and not seat.resigned),
        "can_abort": bool(seat and can_abort(game)),
        "rematch": offer,
        "rematch_game": _rematch_game_for(offer, seat),
        "rematch_accepted": bool(offer and seat and seat.user_id in offer.accepted_by),
        "rematch_names": [s.name for s in game.ordered_seats() if offer and s.user_id in offer.accepted_by],
    }


def _rematch_game_for(offer, seat) -> int | None:
    """The rematch this seat's player plays in, once it started (their page goes there)."""
    if seat is None or seat.user_id is None or offer is None or not offer.new_game_id:
        return None
    return offer.new_game_id if offer.status == offer.Status.ACCEPTED else None


def action_vals(panel: dict, action: dict) -> str:
    """The hx-vals payload that submits `action` from this panel (one token per render).

    `turn` is the seat's `seat_turn` key this panel was drawn under: the engine refuses the
    submission if what the seat decides about has changed since (a stale page).
    """
    return json.dumps({"action": json.dumps(action, sort_keys=True), "token": panel["token"],
                       "version": panel["version"], "turn": panel.get("seat_turn", "")})


def score_rows(game: Game, view: dict, names: list[str]) -> list[dict]:
    """Score rows: from the view during play (it hides what the seat may not see), from
    the rules once the game is over."""
    if game.is_active:
        raw = view.get("scores")
    else:
        raw = game.rules.scores(game.state)
    if not raw:
        return []
    ranks = final_seat_ranks(game) if not game.is_active else [None] * len(raw)
    rows = [
        {"name": names[i], "index": i, "total": entry.get("total", 0), "rank": ranks[i],
         "breakdown": entry.get("breakdown", {}), "parts": list(entry.get("breakdown", {}).values())}
        for i, entry in enumerate(raw)
    ]
    if game.rated:
        _add_rating_changes(game, rows)
    if not game.is_active:
        # The final result reads as a ranking: best first, with medals; ties keep seat order.
        rows.sort(key=lambda row: (row["rank"] is None, row["rank"] or 0, row["index"]))
        for row in rows:
            row["medal"] = MEDALS.get(row["rank"], "")
    return with_bars(rows)


def final_seat_ranks(game: Game) -> list[int | None]:
    """The ranks the engine stored (games.finishing: a resigned or timed-out player ranks
    last whatever the bot scored), never the rules' raw ranking; None for an aborted game."""
    return [seat.rank for seat in game.ordered_seats()]


def _add_rating_changes(game: Game, rows: list[dict]) -> None:
    """Each seat's rating change and why ("+18: 1st of 4; ..."), on the final result."""
    if getattr(game, "_rating_events_version", None) != game.version:   # once per game object
        game._rating_events = {e.user_id: e for e in RatingEvent.objects.filter(game=game)}
        game._rating_events_version = game.version
        game._rating_words = {}
    language = get_language()
    words = game._rating_words.get(language)
    if words is None:   # once per game object and language: a push's audiences share them
        words = game._rating_words[language] = {user_id: (event.change, event.reason, event.display_after)
                                                for user_id, event in game._rating_events.items()}
    seats = {seat.index: seat for seat in game.ordered_seats()}   # by index: a kept card's rows are ranked
    for row in rows:
        seat = seats.get(row["index"])
        said = words.get(seat.user_id) if seat is not None and seat.user_id else None
        if said is not None:
            row["rating_change"], row["rating_reason"], row["rating_after"] = said


def breakdown_labels(rows: list[dict]) -> list[str]:
    """Column headings for the score table: the breakdown keys, in words."""
    keys = list(rows[0].get("breakdown", {})) if rows else []
    return [key.replace("_", " ").capitalize() for key in keys]


def with_bars(rows: list[dict], width: int = 120) -> list[dict]:
    """Bar lengths for the score chart (scaled to the best absolute total)."""
    top = max([abs(r["total"]) for r in rows] + [1])
    for i, row in enumerate(rows):
        row["bar_width"] = round(width * max(row["total"], 0) / top)
        row["bar_y"] = i * 20
    return rows


def _can_undo(game: Game, seat: int | None) -> bool:
    """The seat's own last move, which the rules said could be taken back."""
    if seat is None or not game.is_active or game.version == 0:
        return False
    last = last_move(game)
    return bool(last and last.seat == seat and not last.by_bot and last.undoable)


def last_move(game: Game):
    """The game's last Move, read once per game object (the engine hands over the one it
    just wrote, so the notifier's renders and the answer share it)."""
    if getattr(game, "_last_move_version", None) != game.version:
        game._last_move = game.moves.order_by("-seq").only("seat", "by_bot", "undoable", "seq").first()
        game._last_move_version = game.version
    return game._last_move


def render_panel(game: Game, user, **kwargs) -> str:
    return shell.render_panel(shown_panel_context(game, game.seat_of(user), **kwargs))


def render_panel_for_seat(game: Game, seat: int | None, **kwargs) -> str:
    return shell.render_panel(shown_panel_context(game, seat, **kwargs))


def page_panel_context(game: Game, user, **kwargs) -> dict:
    """What a page or a fetched panel hands the shell for `user` (shown_panel_context)."""
    return shown_panel_context(game, game.seat_of(user), **kwargs)


# --- A finished game's panel: what can no longer change is kept (issue 21, item 5) ---------------
#
# Once a game is over, its board, History and score rows never change again: only the shell's
# live parts do (a rematch offered and its state, the rating rows the worker writes later, the
# clocks' figures, a message for the reader, the token). Those are drawn on every render, from
# the database as before; the board's and the History's HTML and the score rows (without their
# ratings) are kept in the cache under everything they are made of, so a page load, a fetched
# panel and every push after the end (a rematch offered, accepted, declined; ratings arriving)
# draw no board.

# A quarter of an hour: the reads that repeat (players looking at the result, the rematch's
# pushes, ratings arriving) come in the minutes after the end; an audience's kept parts are
# 20-200 kB in Redis (the board is most of a panel), so they are not kept for hours.
KEPT_SECONDS = 900
KEPT_FORMAT = 1   # raise it when what is kept, or how the kept parts are drawn, changes
_RATING_KEYS = ("rating_change", "rating_reason", "rating_after")   # what _add_rating_changes adds
_TOKEN_MARK = "<!--panel:token-->"   # where a kept board had its render's token (none has, at the end)


@one_language()
def shown_panel_context(game: Game, seat: int | None, *, selection: str = "", message: str = "",
                        error: bool = False, oob: bool = False) -> dict:
    """seat_panel_context for a game in play; for a finished or aborted game, the shell's live
    parts drawn from the database and the board, History and score rows from the cache (drawn
    and kept by the first render of that audience in that language and zone). A selection in
    the address (`?sel=`, meaningless once the game is over) is drawn in full, never kept."""
    if game.is_active or selection:
        return seat_panel_context(game, seat, selection=selection, message=message, error=error, oob=oob)
    key = kept_key(game, seat)
    kept = cache.get(key)
    if kept is None:
        panel = seat_panel_context(game, seat, message=message, error=error, oob=oob)
        kept = keep_finished_parts(key, panel)
    else:
        panel = finished_panel_context(game, seat, kept, message=message, error=error, oob=oob)
    panel["kept_board"] = kept["board"].replace(_TOKEN_MARK, panel["token"])
    panel["kept_history"] = kept["history"]
    return panel


def kept_key(game: Game, seat: int | None) -> str:
    """Everything a finished game's board, History and score rows are made of: the game and its
    last change (version and stamp, as the replay's keys), its rules' version, the audience
    (a seat sees what a spectator may not), the reader's words and clock, and the seats' names,
    bots and ranks (seat rows change without the game's stamp: a player renamed)."""
    audience = "spectator" if seat is None else f"seat-{seat}"
    seats = repr([(s.index, s.user_id, s.name, s.is_bot, s.bot_level, s.bot_since, s.resigned, s.rank, s.score)
                  for s in game.ordered_seats()])
    who = hashlib.sha256(seats.encode()).hexdigest()[:24]
    where = f"{get_language()}:{timezone.get_current_timezone_name()}"
    return (f"panel-kept:{KEPT_FORMAT}:{game.pk}:{game.game_slug}:{game.rules_version}:{game.status}:"
            f"{game.version}:{game.updated.timestamp()}:{audience}:{where}:{who}")


def keep_finished_parts(key: str, panel: dict) -> dict:
    """Draw a finished game's board and History from its full context and keep them, with the
    score rows (their rating changes left out: they are read on every render) and what the
    shell reads of the view."""
    token = panel["token"]
    kept = {
        "board": str(shell.board(panel)).replace(token, _TOKEN_MARK),
        "history": str(shell.history(panel)),
        "last_event": panel["last_event"],
        "seat_turn": panel["seat_turn"],
        "scores": [{k: v for k, v in row.items() if k not in _RATING_KEYS} for row in panel["scores"]],
    }
    cache.set(key, kept, KEPT_SECONDS)
    return kept


def finished_panel_context(game: Game, seat: int | None, kept: dict, *, message: str = "", error: bool = False,
                           oob: bool = False) -> dict:
    """seat_panel_context of a finished game without its view, legal actions, History and
    board: the kept score rows with today's rating rows, the clocks, the rematch and the table's
    actions read as every render reads them."""
    names = seat_names(game)
    scores = [dict(row) for row in kept["scores"]]
    if game.rated:
        _add_rating_changes(game, scores)
    winners = [row["name"] for row in scores if row["rank"] == 1]
    panel = {
        "game": game, "rules": game.rules, "seat": seat, "legal": [], "names": names,
        "seats": game.ordered_seats(), "to_act": [], "waiting_names": [], "bot_thinking": False,
        "my_turn": False, "selection": "", "message": message, "error": error, "token": uuid.uuid4().hex,
        "version": game.version, "seat_turn": kept["seat_turn"], "last_event": kept["last_event"],
        "scores": scores, "winners": winners, "winners_names": names_joined(winners),
        "ending": ending_sentences(game), "can_undo": False, "oob": oob,
    }
    panel.update(table_context(game, seat))
    panel["board_template"] = presenters.board_template(game.game_slug)
    panel.update(presenters.board_assets(game.game_slug))
    return panel
