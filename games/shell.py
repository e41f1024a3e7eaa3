"""The panel's shell written in Python: what games/_panel.html drew around the board, with
its clocks and table actions (issue 21: with the boards in Python, the shell was half of a
small panel's render, its time in variable lookups, auto-escaping and one catalogue read per
`{% translate %}`).

The markup is what the template drew, character for character (whitespace included), so a
pushed panel, a fetched one and a delta cut from them (games.regions) are unchanged;
tests/games/test_panel_shell.py renders the old template beside this for every game at
several points, every seat and a spectator, in two languages, with clocks, bots standing
in, rematches and rated results. The rules the template followed, kept here:

- every outside text (names, messages, endings) is escaped once; a translated literal is
  not (Django marks `{% translate "..." %}` safe) and a `{% blocktranslate %}`'s values are;
- numbers print as Python prints them (the template ran under `{% localize off %}`);
- the board is still its game's template, rendered under `localize off` as before.
"""
from __future__ import annotations

from html import escape as _html_escape

from django.template import Context, Engine, engines
from django.template.backends.django import DjangoTemplates
from django.template.defaultfilters import date as date_filter
from django.urls import reverse
from django.utils import timezone
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language

from accounts.templatetags.people import person as _person_filter
from config.local_time import local_time

from . import presenters as _presenters
from .presenters import ordinal, score_grid as _score_grid, shortened as _shortened
from .translations import gettext as _, ngettext, one_language, pgettext


def esc(value) -> str:
    """What auto-escape printed: a safe string as it is, anything else as text, escaped
    (html.escape directly: Django's `escape` first checks every argument for a lazy string)."""
    if isinstance(value, SafeData):
        return str(value)
    return _html_escape(str(value))


def game_url(game, name: str) -> str:
    """`reverse(name, args=[game.pk])`, reversed once per Game instance and name: a move's
    push draws every audience from one instance, and a reverse() (the URL configuration and
    script prefix read through asgiref's Local) cost as much as a few hundred f-strings."""
    urls = game.__dict__.setdefault("_reversed_urls", {})
    url = urls.get(name)
    if url is None:
        url = urls[name] = reverse(name, args=[game.pk])
    return url


_KEPT_INCLUDES: dict[tuple[str, str], str] = {}


def kept_include(template_name: str) -> str:
    """A static partial as {% include %} drew it, rendered once per language and kept (the
    boards written in Python include their game's defs and legends this way)."""
    key = (get_language() or "", template_name)
    html = _KEPT_INCLUDES.get(key)
    if html is None:
        html = _KEPT_INCLUDES[key] = str(_django_engine().get_template(template_name).render(Context({})))
    return html


def person(name) -> str:
    """accounts' `person` filter (the same markup), without format_html's extra checks."""
    if isinstance(name, SafeData):
        return _person_filter(name)
    shown = _html_escape(str(name))
    return f'<span class="name" title="{shown}">{shown}</span>'


def rank_words(rank) -> str:
    """game_tags' `ordinal` filter: "1st", "2nd"; nothing for a rank that is not a number."""
    try:
        return ordinal(int(rank))
    except (TypeError, ValueError):
        return ""


def revision(moment) -> str:
    """`|date:'U.u'`: seconds since the epoch and microseconds (the panel's revision)."""
    if not moment:
        return ""
    return f"{int(moment.timestamp())}.{moment.microsecond:06d}"


def day(moment) -> str:
    """`|date:"M j"` as the template printed it: in the active zone, the month's name translated."""
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return date_filter(moment, "M j")


@one_language()
def render_panel(panel: dict) -> SafeString:
    """The whole panel (games/_panel.html as it was), around the game's board template."""
    game = panel["game"]
    oob = 'hx-swap-oob="true"' if panel.get("oob") else ""
    out = ['\n<div id="game-panel" class="game-panel" data-version="', str(panel["version"]),
           '" data-last-event="', esc(panel["last_event"]), '" data-revision="', revision(game.updated), '" ',
           oob, '>\n  \n  <!--r:head--><div id="gp-head" class="region">\n',
           '  <div class="status-line" role="status" aria-live="polite">\n    ', status_line(panel),
           "\n  </div>\n  ", clocks(panel) if game.has_clock else "", "\n  ", message(panel), "\n  ",
           final_result(panel), '\n  </div><!--/r:head-->\n  <div class="game-layout">\n',
           '    <!--r:board--><div class="board-col" id="gp-board">\n      ', board(panel),
           '\n    </div><!--/r:board-->\n    <aside class="side-col">\n',
           '      <!--r:scores--><section class="card scores" id="gp-scores">\n        <h2>',
           _("Scores") if game.is_active else _("Score card"), "</h2>\n        ", scores(panel),
           '\n      </section><!--/r:scores-->\n      <!--r:actions--><div id="gp-actions" class="region">\n      ',
           table_actions(panel), "\n      ", undo(panel), "\n      </div><!--/r:actions-->\n",
           '      <!--r:history--><section class="card history" id="gp-history">\n        <h2>',
           pgettext("what happened in a game so far", "History"), "</h2>\n        ", bot_notes(panel),
           "\n        ", history(panel),
           "\n      </section><!--/r:history-->\n    </aside>\n  </div>\n</div>\n"]
    return mark_safe("".join(out))


def status_line(panel: dict) -> str:
    game = panel["game"]
    if game.is_active:
        return "\n      " + "\n      ".join(active_status(panel)) + "\n    "
    ending = " ".join(esc(sentence) for sentence in panel["ending"])
    if game.status == "finished":
        winners = ""
        if panel["winners"]:
            words = ngettext("%(names)s wins.", "%(names)s win.", len(panel["winners"]))
            winners = ('<span class="star" aria-hidden="true">★</span> '
                       + words % {"n": len(panel["winners"]), "names": esc(panel["winners_names"])})
        replay = esc(game_url(game, "games:replay"))
        return ('\n      <strong>' + _("Game over.") + f'</strong> {winners}\n      '
                f'<span class="ending">{ending}</span> <a href="{replay}">' + _("Watch the replay") + '</a>\n    ')
    return '\n      <strong>' + _("This game was aborted.") + f'</strong> <span class="ending">{ending}</span>\n    '


def active_status(panel: dict) -> list[str]:
    """The six lines of an active game's status, each empty when it does not apply."""
    game = panel["game"]
    lines = ['<strong class="your-turn">' + _("Your move.") + '</strong>' if panel["my_turn"] else ""]
    waiting = panel["waiting_names"]
    lines.append(_("Waiting for %(names)s.") % {"names": ", ".join(esc(n) for n in waiting)} if waiting else "")
    lines.append('<span class="bot-thinking" aria-busy="true"><span class="spinner" aria-hidden="true"></span> '
                 '' + _("The bot is thinking…") + '</span>' if panel["bot_thinking"] else "")
    lines.append('<span class="muted">' + _("You are watching.") + '</span>' if panel["seat"] is None else "")
    deadline = ""
    if game.turn_deadline:
        deadline = ('<span class="muted">'
                    + _("Deadline %(deadline)s.") % {"deadline": esc(local_time(game.turn_deadline))} + "</span>")
    lines.append(deadline)
    lines.append(f'<button class="button" hx-post="{esc(game_url(game, "games:take_back"))}" '
                 f'hx-target="#live" hx-swap="innerHTML">' + _("Take my seat back from the bot") + '</button>'
                 if panel["can_take_back"] else "")
    return lines


def clocks(panel: dict) -> str:
    """games/_clocks.html: seat clocks and who plays each seat (site.js counts down)."""
    out = ['\n\n<ul class="clocks plain" data-now="', str(int(panel["server_now"].timestamp())),
           '" data-day-format="', esc(_("%(days)sd %(hours)sh")), '">\n  ']
    for row in panel["clocks"]:
        out.append(clock_row(row))
    out.append("\n</ul>\n")
    return "".join(out)


def clock_row(row: dict) -> str:
    running = row["running"]
    remaining = ""
    if row["remaining"] is not None:
        counting = f'data-remaining="{row["remaining"]}"' if running else ""
        remaining = (f'\n      <span class="clock" {counting} title="' + _("Time left") + f'">'
                     f'{esc(clock(row["remaining"]))}</span>\n    ')
    paused = vacation = bot = ""
    if row["paused_until"]:
        paused = ('<small class="muted">' + _("clock stopped until %(day)s") % {"day": esc(day(row["paused_until"]))}
                  + "</small>")
    if row["vacation_until"]:
        vacation = ('<small class="chip">' + _("on vacation until %(day)s") % {"day": esc(day(row["vacation_until"]))}
                    + "</small>")
    seat = row["seat"]
    if seat.resigned:
        bot = ('<small class="chip">' + _("resigned: played by a bot since move %(move)s") % {"move": seat.bot_since}
               + "</small>\n    ")
    elif seat.bot_since is not None:
        bot = '<small class="chip">' + _("played by a bot since move %(move)s") % {"move": seat.bot_since} + "</small>"
    return (f'\n  <li class="clock-row{" running" if running else ""}">\n    <span class="who">{person(row["name"])}'
            f"</span>\n    {remaining}\n    {paused}\n    {vacation}\n    {bot}\n  </li>\n  ")


def message(panel: dict) -> str:
    if not panel["message"]:
        return ""
    kind = "error" if panel["error"] else "notice"
    return f'<div class="{kind} message" role="alert">{esc(panel["message"])}</div>'


def final_result(panel: dict) -> str:
    """The finished game's ranking, with medals and rating changes, and where to go next."""
    game, scores = panel["game"], panel["scores"]
    if game.status != "finished" or not scores:
        return ""
    ending = panel["ending"]
    account = f'<p class="ending-account">{" ".join(esc(s) for s in ending)}</p>' if ending else ""
    out = ['\n  <section class="card final-result" aria-labelledby="results-title">\n    <h2 id="results-title">',
           _("Final result"), "</h2>\n    ", account, '\n    <ol class="ranking">']
    for row in scores:
        index = esc(row["index"])
        points = ngettext("%(points)s point", "%(points)s points", row["total"]) % {"points": esc(row["total"])}
        rating = ""
        if row.get("rating_reason"):
            rating = ('<span class="rating-change">' + _("rating %(rating)s: %(reason)s")
                      % {"rating": esc(row["rating_after"]), "reason": esc(row["rating_reason"])} + "</span>")
        medal = esc(row.get("medal", ""))
        out.append(f'\n      <li class="seat-{index}"><span class="medal {medal}" aria-hidden="true"></span>\n'
                   f'        <strong>{esc(rank_words(row["rank"]))}</strong> '
                   f'<span class="swatch seat-{index}" aria-hidden="true"></span>{person(row["name"])}\n'
                   f'        <span class="points">{points}</span>\n        {rating}</li>')
    new_table = _("New table of %(title)s") % {"title": esc(game.title)}
    out += ['\n    </ol>\n    <p class="row results-links"><a class="button" href="', esc(reverse("lobby:index")),
            '">', _("Back to the lobby"), '</a>\n      <a href="', esc(game_url(game, "games:replay")), '">',
            _("Watch the replay"), '</a>\n      <a href="', esc(reverse("lobby:create")), "?game=",
            esc(game.game_slug), '">', new_table, "</a></p>\n  </section>\n  "]
    return "".join(out)


def _django_engine() -> Engine:
    backend = engines["django"]
    assert isinstance(backend, DjangoTemplates)
    return backend.engine


def board(panel: dict) -> str:
    """The game's board: a finished game's as it was kept (games.panel.shown_panel_context),
    else written by its presenter's `board_html(panel)` where it has one (Rift Valley
    Reserve), else its template (board_template)."""
    kept = panel.get("kept_board")
    if kept is not None:
        return kept
    written = _presenters.board_html(panel["game"].game_slug, panel)
    if written is not None:
        return written
    return board_template(panel)


def board_template(panel: dict) -> str:
    """The game's board template, rendered as the panel's include did: under `localize off`
    (SVG coordinates never take a decimal comma), with the panel as its context."""
    template = _django_engine().get_template(panel["board_template"])
    context = Context(panel, use_l10n=False)
    with context.push():                  # as {% include %} did: what the board sets stays in it
        return template.render(context)


def scores(panel: dict) -> str:
    """games/_scores.html (one tag; the replay still includes the template)."""
    return score_card(panel) + "\n"


def history(panel: dict) -> str:
    """games/_history.html as the panel drew it (no label of its own: "Game history"); a
    finished game's as it was kept."""
    kept = panel.get("kept_history")
    if kept is not None:
        return kept
    label = _("%(label)s, newest first") % {"label": _("Game history")}
    return (f'\n<div class="log-scroll" tabindex="0" role="region" aria-label="{label}">\n'
            f'  <ol class="log">{history_items(panel["history"])}</ol>\n</div>\n')


def table_actions(panel: dict) -> str:
    """games/_table_actions.html: abort, resign, the rematch (a seat's own page only)."""
    if not panel["my_seat"]:
        return "\n"
    game = panel["game"]
    if game.is_active:
        inner = "\n    " + abort_button(panel) + "\n    " + resign_button(panel) + "\n  "
    elif game.status == "finished":
        inner = "\n    " + rematch(panel) + "\n  "
    else:
        inner = ""
    return f'\n<section class="card table-actions">\n  {inner}\n</section>\n\n'


def abort_button(panel: dict) -> str:
    if not panel["can_abort"]:
        return ""
    url = esc(game_url(panel["game"], "games:abort"))
    return (f'<button class="button secondary" hx-post="{url}" hx-target="#live" hx-swap="innerHTML" '
            'hx-confirm="' + _("Abort this game? Nobody wins, ratings do not change.") + '">'
            + _("Abort the game") + '</button>')


def resign_button(panel: dict) -> str:
    if not panel["can_resign"]:
        return ""
    game = panel["game"]
    confirm = (_("Resign? You rank last, and a bot plays your seat to the end.") if game.players > 2
               else _("Resign? You rank last."))
    url = esc(game_url(game, "games:resign"))
    return (f'<button class="button secondary" hx-post="{url}" hx-target="#live" hx-swap="innerHTML" '
            f'hx-confirm="{confirm}">' + _("Resign") + '</button>')


def rematch(panel: dict) -> str:
    """The rematch's state on a finished game: started, declined, expired, or offered."""
    offer, game = panel["rematch"], panel["game"]
    if offer and offer.status == "accepted" and offer.new_game_id:
        started = _('Rematch started: <a href="%(url)s">go to the new game</a>.') % {
            "url": esc(reverse("games:play", args=[offer.new_game_id]))}
        redirect = ""
        if panel.get("oob") and panel["rematch_game"]:
            redirect = f'<div hidden data-redirect="{esc(reverse("games:play", args=[panel["rematch_game"]]))}"></div>'
        return f"\n      <p>{started}</p>\n      \n      {redirect}\n    "
    if offer and offer.status == "declined":
        if offer.declined_by:
            words = _("The rematch was declined by %(name)s.") % {"name": esc(offer.declined_by.username)}
        else:
            words = _("The rematch was declined.")
        return f'\n      <p class="muted">{words}</p>\n    '
    if offer and offer.status == "expired":
        return '\n      <p class="muted">' + _("The rematch offer expired.") + '</p>\n    '
    accepted = ""
    if offer:
        names = ", ".join(esc(name) for name in panel["rematch_names"])
        accepted = "<p>" + _("Rematch accepted by %(names)s.") % {"names": names} + "</p>"
    if panel["rematch_accepted"]:
        choice = '<p class="muted">' + _("Waiting for the others to accept the rematch.") + '</p>'
    else:
        offer_words = _("Accept the rematch") if offer else _("Offer a rematch")
        decline = ""
        if offer:
            decline = (f'<button class="button secondary" '
                       f'hx-post="{esc(game_url(game, "games:decline_rematch"))}" hx-target="#live" '
                       f'hx-swap="innerHTML">' + _("Decline") + '</button>')
        choice = (f'\n        <button class="button" hx-post="{esc(game_url(game, "games:rematch"))}" '
                  f'hx-target="#live" hx-swap="innerHTML">{offer_words}</button>\n        {decline}\n      ')
    return f"\n      {accepted}\n      {choice}\n    "


def undo(panel: dict) -> str:
    if not panel["can_undo"]:
        return ""
    url = esc(game_url(panel["game"], "games:undo"))
    return ('\n      <section class="card undo-card" aria-label="' + _("Your last move") + f'">'
            f'<button class="button secondary" hx-post="{url}" hx-target="#live" hx-swap="innerHTML">'
            f'' + _("Take back my last move") + '</button></section>\n      ')


def bot_notes(panel: dict) -> str:
    """The History's note for each seat a bot plays since a move (resigned or timed out)."""
    notes = []
    for row in panel["clocks"]:
        seat = row["seat"]
        if seat.bot_since is None:
            continue
        values = {"move": seat.bot_since, "name": esc(row["name"])}
        if seat.resigned:
            words = _("Move %(move)s: %(name)s resigned; the seat is played by a bot since move %(move)s.") % values
        else:
            words = (_("Move %(move)s: %(name)s ran out of time; the seat is played by a bot since move %(move)s.")
                     % values)
        notes.append(f'<p class="muted bot-note">{words}</p>')
    return "".join(notes)


# --- the score card, the History's entries and a clock's words (the replay's templates use them too,
# through games.templatetags.game_tags) ---------------------------------------------------------------

# The escaped form of each History sentence: the sentences are kept (games.presenters), so
# the same string objects come back render after render and their hash is already known.
_ESCAPED: dict[str, str] = {}


def history_items(history) -> SafeString:
    """The History's `<li>` entries, newest first, numbered by move, with "Turn N" before an
    entry whose sentence does not start with it. Written here rather than as a template loop:
    a late game has several hundred entries and every audience's panel draws them on every
    move (issue 21). What a loop in games/_history.html drew, character for character."""
    if not history:
        return mark_safe('<li class="muted">%s</li>' % conditional_escape(_("Nothing has happened yet.")))
    if len(_ESCAPED) > 20000:
        _ESCAPED.clear()
    turn_label = _("Turn %(number)s")
    turns: dict = {}
    parts = []
    for entry in reversed(history):
        text = entry["text"]
        shown = _ESCAPED.get(text)
        if shown is None:
            shown = _ESCAPED[text] = str(conditional_escape(text))
        turn = entry["turn"]
        if turn is not None and not entry["says_turn"]:
            label = turns.get(turn)
            if label is None:
                words = turn_label % {"number": conditional_escape(turn)}
                label = turns[turn] = '<span class="turn">%s</span> ' % words
            parts.append('<li value="%s">%s%s</li>' % (entry["number"], label, shown))
        else:
            parts.append('<li value="%s">%s</li>' % (entry["number"], shown))
    return mark_safe("".join(parts))


def _cell(value) -> str:
    """conditional_escape without its check of every argument for a lazy string (a score card
    has a cell per seat and category: that check was a third of the card)."""
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return _html_escape(str(value))


def _person(name) -> str:
    shown = _cell(name)
    return f'<span class="name" title="{shown}">{shown}</span>'


def score_card(context) -> SafeString:
    """The score card on its side and the score bars (what games/_scores.html drew as a
    template: a panel's every audience draws it on every move, issue 21): a column per player,
    a row per category, the total under the categories it adds up, what it does not count
    after it; the rating row on a rated game's final card. Every outside text escaped once."""
    scores, game = context.get("scores"), context.get("game")
    if not scores:
        return mark_safe('<p class="muted">%s</p>' % _cell(_("Scores appear as the game goes on.")))
    out = ['<table class="score-table score-card"><thead><tr><th scope="col"><span class="visually-hidden">',
           _cell(_("Category")), "</span></th>"]
    for row in scores:
        rank, index = row["rank"], _cell(row["index"])
        out.append(f'<th scope="col" class="seat-{index}{" winner" if rank == 1 else ""}">')
        if rank:
            star = '<span class="star" aria-hidden="true">★</span>' if rank == 1 else ""
            out.append(f'<span class="rank">{star}{_cell(rank)}.</span> ')
        out.append(f'<span class="swatch seat-{index}" aria-hidden="true"></span>{_person(row["name"])}</th>')
    out.append("</tr></thead><tbody>")
    for line in _score_grid(game.game_slug, scores):
        total = line["key"] == "total"
        cls = "total" if total else ("aside" if line["aside"] else "")
        cells = "".join(f"<td><strong>{_cell(v)}</strong></td>" if total else f"<td>{_cell(v)}</td>"
                        for v in line["values"])
        out.append(f'<tr class="{cls}"><th scope="row">{_cell(line["label"])}</th>{cells}</tr>')
    if game.rated and not game.is_active:
        out.append('<tr class="rating"><th scope="row">' + _cell(_("Rating")) + '</th>')
        for row in scores:
            change = (f'{_cell(row["rating_after"])} <small>{_cell(row["rating_reason"])}</small>'
                      if row.get("rating_reason") else "")
            out.append(f'<td class="rating-change">{change}</td>')
        out.append("</tr>")
    out.append(f'</tbody></table><svg class="score-bars" viewBox="0 0 220 {chart_height(scores)}" role="img" '
               f'aria-label="' + _cell(_("Scores as bars")) + '">')
    for row in scores:
        width, index = row["bar_width"], _cell(row["index"])
        out.append(f'<g transform="translate(0,{_cell(row["bar_y"])})"><text x="0" y="12" font-size="9">'
                   f'{_cell(_shortened(row["name"], 14))}</text><rect class="bar seat-{index}" x="70" y="3" '
                   f'height="11" rx="2" width="{_cell(width)}"></rect><text x="{int(width) + 74}" y="12" '
                   f'font-size="9">{_cell(row["total"])}</text></g>')
    out.append("</svg>")
    return mark_safe("".join(out))


def chart_height(rows) -> int:
    return 20 * len(rows or [])


def clock(seconds) -> str:
    """A clock's time left: "1d 4h" for days, "h:mm:ss" for hours, "m:ss" below."""
    if seconds is None:
        return ""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return _("%(days)sd %(hours)sh") % {"days": days, "hours": hours}
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
