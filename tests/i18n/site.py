"""Every page type of the site, for the checks in every language (issue 23): the lobby, the
game list, each game's how-to-play page and its play page at start, middle and end (for its
player and a spectator), a replay, profile, settings, leaderboard, notifications, the social
and tournament pages, registration pages, help and the 404 page.

`build()` makes what the pages show (games, a table, a tournament, a challenge, an inbox
line) and `pages()` lists (name, path, who): who is "player" (alice, signed in) or
"visitor" (signed out)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.utils import timezone

from games import rules
from tests.i18n.stages import advance, start

TOURNAMENT_GAME = "roll-to-the-top"


@dataclass
class Site:
    player: object
    games: dict[tuple[str, str], int] = field(default_factory=dict)  # (slug, stage) -> game id
    table: int = 0
    tournament: int = 0


def build(player, opponent) -> Site:
    """Alice's games of every title at every stage, a table she hosts, a tournament, a
    challenge from her opponent and a line in her inbox."""
    from games import engine
    from lobby.services import create_table
    from notifications.services import Message, tell
    from social.services import create_challenge
    from tournaments.models import Tournament

    site = Site(player)
    for slug in rules.slugs():
        site.games[(slug, "start")] = start(slug, player).pk
        site.games[(slug, "middle")] = advance(start(slug, player), player, 6).pk
        ended = advance(start(slug, player), player, 400)
        if ended.is_active:
            engine.resign(ended.pk, player)
        site.games[(slug, "end")] = ended.pk
    table = create_table(player, game_slug=TOURNAMENT_GAME, seats_count=3, options={}, is_private=False,
                         pace="correspondence", days_per_move=2)
    site.table = table.pk
    site.tournament = Tournament.objects.create(
        name="Spring climb", organiser=opponent, game_slug=TOURNAMENT_GAME,
        starts_at=timezone.now() + timedelta(days=2)).pk
    create_challenge(opponent, [player], {"game_slug": TOURNAMENT_GAME, "seats": 2, "options": {},
                                          "pace": "correspondence", "days_per_move": 2})
    tell("rematch", [Message(player.pk, "bob offers a rematch.", "/")])
    return site


def pages(site: Site) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(name, path, who, the catalogue roots whose text the page shows besides the site's)."""
    name = site.player.username
    acc, lob, gam, soc, tou, note = ("accounts",), ("lobby",), ("games",), ("social",), ("tournaments",), \
        ("notifications",)
    found = [
        ("lobby", "/", "visitor", lob + gam), ("lobby-signed-in", "/", "player", lob + gam + note),
        ("games", "/games/", "visitor", gam), ("help", "/help/", "visitor", ()),
        ("not-found", "/games/no-such-game/how-to-play/", "visitor", gam),
        ("login", "/accounts/login/", "visitor", acc), ("signup", "/accounts/signup/", "visitor", acc),
        ("password-reset", "/accounts/password_reset/", "visitor", acc),
        ("password-change", "/accounts/password_change/", "player", acc),
        ("profile", f"/accounts/u/{name}/", "visitor", acc + soc + gam),
        ("leaderboard", "/accounts/leaderboard/", "visitor", acc),
        ("settings", "/accounts/settings/", "player", acc + ("chat",)),
        ("notifications", "/notifications/", "player", note),
        ("notification-settings", "/notifications/settings/", "player", note),
        ("my-games", "/me/games/", "player", gam),
        ("players", f"/players/?q={name[:3]}", "player", soc), ("challenges", "/challenges/", "player", soc),
        ("new-challenge", "/challenges/new/", "player", soc + lob), ("blocked", "/blocked/", "player", soc),
        ("tournaments", "/tournaments/", "visitor", tou),
        ("tournament", f"/tournaments/{site.tournament}/", "player", tou),
        ("new-tournament", "/tournaments/new/", "player", tou), ("new-table", "/tables/new/", "player", lob),
        ("table", f"/tables/{site.table}/", "player", lob + ("chat",)),
    ]
    for slug in rules.slugs():
        game = ("games", f"games/{rules.package_of(slug).rsplit('.', 1)[-1]}")
        found.append((f"{slug}-how-to-play", f"/games/{slug}/how-to-play/", "visitor", game))
        for stage in ("start", "middle", "end"):
            game_id = site.games[(slug, stage)]
            found.append((f"{slug}-{stage}", f"/play/{game_id}/", "player", game + ("chat",)))
            found.append((f"{slug}-{stage}-spectator", f"/play/{game_id}/", "visitor", game + ("chat",)))
        found.append((f"{slug}-replay", f"/play/{site.games[(slug, 'end')]}/replay/?step=2", "visitor", game))
    return found
