"""The open game record: export, the JSON Schema, import (replay and check), and secrecy."""
from __future__ import annotations

import copy
import json

import jsonschema
import pytest
from django.core.management import CommandError, call_command

from games import rules
from games.record import RecordError, export_record, import_record, schema

SLUGS = ["roll-to-the-top", "nanga-parbat", "alpine-trails", "rift-valley-reserve", "rifugio"]


def bot_game(start_game, slug, seed=5):
    """A finished game of `slug` played by bots (they finish it at once)."""
    players = max(2, rules.get(slug).min_players)
    game = start_game(slug, [None] * players, seed=seed)
    game.refresh_from_db()
    assert not game.is_active
    return game


def as_downloaded(record):
    return json.loads(json.dumps(record))


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_exports_a_valid_record_that_imports_to_the_same_result(start_game, slug):
    game = bot_game(start_game, slug)
    record = as_downloaded(export_record(game))
    jsonschema.validate(record, schema())
    replayed = import_record(record)
    assert replayed.moves == game.version == len(record["actions"])
    assert [s.score for s in game.ordered_seats()] == [s["total"] for s in replayed.scores]
    assert [s.rank for s in game.ordered_seats()] == replayed.ranking


@pytest.mark.django_db
def test_a_record_with_a_changed_action_is_refused_naming_the_move(start_game):
    record = as_downloaded(export_record(bot_game(start_game, "rifugio")))
    tampered = copy.deepcopy(record)
    middle = len(tampered["actions"]) // 2
    tampered["actions"][middle]["totals"] = [t + 5 for t in tampered["actions"][middle]["totals"]]
    with pytest.raises(RecordError, match=f"^Move {middle + 1} "):
        import_record(tampered)


@pytest.mark.django_db
def test_a_record_with_a_changed_result_is_refused(start_game):
    record = as_downloaded(export_record(bot_game(start_game, "roll-to-the-top")))
    record["result"]["scores"][0]["total"] += 1
    with pytest.raises(RecordError, match="differs from the record"):
        import_record(record)


@pytest.mark.django_db
def test_a_record_with_an_illegal_move_is_refused(start_game):
    record = as_downloaded(export_record(bot_game(start_game, "roll-to-the-top")))
    record["actions"][0]["action"] = {"type": "teleport"}
    with pytest.raises(RecordError, match="^Move 1 .* is not legal here"):
        import_record(record)


def test_a_record_that_is_not_a_record_is_refused():
    with pytest.raises(RecordError, match="Not a valid game record"):
        import_record({"format": "something-else"})


@pytest.mark.django_db
def test_the_import_command_accepts_a_true_record_and_refuses_a_tampered_one(start_game, tmp_path, capsys):
    record = as_downloaded(export_record(bot_game(start_game, "alpine-trails")))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    call_command("import_game", str(good))
    assert capsys.readouterr().out.startswith("OK: alpine-trails")
    record["seed"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    with pytest.raises(CommandError, match="Refused: Move"):
        call_command("import_game", str(bad))


@pytest.mark.django_db
def test_an_unfinished_game_exports_no_seed_and_only_the_public_view(start_game, alice, bob, client, alice_client):
    game = start_game("rifugio", [alice, bob], seed=987654321987)
    for who in (client, alice_client):
        record = who.get(f"/play/{game.pk}/record.json").json()
        jsonschema.validate(record, schema())
        assert "seed" not in record and "actions" not in record and "result" not in record
        assert record["position"] == as_downloaded(game.rules.view(game.state, None))
        assert str(game.seed) not in json.dumps(record)


@pytest.mark.django_db
def test_an_admin_gets_the_full_record_of_an_unfinished_game(start_game, alice, bob, admin_client):
    game = start_game("rifugio", [alice, bob], seed=8)
    record = admin_client.get(f"/play/{game.pk}/record.json").json()
    assert record["seed"] == 8 and record["actions"] == []


@pytest.mark.django_db
def test_a_finished_game_downloads_as_an_attachment(start_game, client):
    game = bot_game(start_game, "nanga-parbat")
    response = client.get(f"/play/{game.pk}/record.json")
    assert response["Content-Disposition"] == f'attachment; filename="nanga-parbat-{game.pk}.json"'
    assert response.json()["seed"] == 5
