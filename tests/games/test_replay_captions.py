"""Issue 19, rows 1 and 2: every replay caption is the History's sentence with the
player's name, never a raw action dump; Roll to the Top's in-turn "Undo last number" and
"Start over" are no replay steps (they stay in the move log)."""
from __future__ import annotations

import re

import pytest

from games import engine, replay, rules
from games.views import replay_context

pytestmark = pytest.mark.django_db

# describe_action's shape ("Place: box [0, 0], dice ['d12']"), or any list/dict spelled out.
RAW = re.compile(r"[\[\]{}]|'\w+'|^[A-Z][a-z ]+: [a-z_ ]+ ")
RTTT = "roll-to-the-top"


def raw_captions(game) -> list[tuple[int, str]]:
    names = [seat.name for seat in game.ordered_seats()]
    found = []
    for step, seq in enumerate(replay.step_seqs(game), start=1):
        caption = replay_context(game, step)["move_label"]
        mover = names[game.moves.get(seq=seq).seat]
        if RAW.search(caption) or mover not in caption:
            found.append((step, caption))
    return found


@pytest.mark.parametrize("slug", rules.slugs())
def test_every_replay_caption_is_a_sentence_naming_the_player(start_game, slug):
    game = start_game(slug, [None, None], seed=3)
    assert not game.is_active
    assert raw_captions(game) == []


def test_the_replay_page_shows_the_caption_without_a_raw_dump(client, start_game):
    game = start_game("rift-valley-reserve", [None, None], seed=3)
    html = client.get(f"/play/{game.pk}/replay/?step=1").content.decode()
    caption = re.search(r'<p class="replay-move"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert re.search(r"drew a (Stop|Tent|Trail)", caption) and "cell" not in caption


def _place_some(game, user, count):
    for _ in range(count):
        action = next(a for a in game.rules.legal_actions(game.state, 0) if a["type"] == "place")
        engine.submit(game.pk, user, action)
        game.refresh_from_db()


def test_undo_and_start_over_are_not_replay_steps(start_game, alice, bob):
    game = start_game(RTTT, [alice, bob], seed=3)  # three dice rolled: numbers to place
    _place_some(game, alice, 2)
    engine.submit(game.pk, alice, {"type": "unplace"})
    game.refresh_from_db()
    _place_some(game, alice, 1)
    engine.submit(game.pk, alice, {"type": "reset"})
    game.refresh_from_db()
    _place_some(game, alice, 1)
    engine.submit(game.pk, alice, {"type": "done"})
    game.refresh_from_db()
    kinds = [m.action["type"] for m in game.moves.order_by("seq")]
    assert kinds == ["place", "place", "unplace", "place", "reset", "place", "done"]  # all kept
    shown = [game.moves.get(seq=seq).action["type"] for seq in replay.step_seqs(game)]
    assert shown == ["place", "done"]  # "Start over" took back every number before it
    assert replay.step_seqs(game) == [6, 7]
    context = replay_context(game, 2)
    assert context["last"] == 2 and "alice is done." in context["move_label"]
    assert "alice wrote" in replay_context(game, 1)["move_label"]


def test_the_replay_state_at_a_step_is_the_state_after_its_move(start_game, alice, bob):
    game = start_game(RTTT, [alice, bob], seed=3)  # three dice rolled: numbers to place
    _place_some(game, alice, 2)
    engine.submit(game.pk, alice, {"type": "unplace"})
    game.refresh_from_db()
    names = ["alice", "bob"]
    after_unplace = replay.replay_state(game)
    assert replay.replay_step(game, 1, names).state == after_unplace  # place 1, net of place 2 + undo
    assert "took back" not in replay.replay_step(game, 1, names).caption
