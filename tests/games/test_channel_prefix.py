"""Redis pub/sub ignores the database number: two sites (or two test workers) on one Redis
with different databases must not hear each other's pushes, so a database other than 0
names its channels after itself (config.settings.channel_prefix_for)."""
from __future__ import annotations

import asyncio
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.utils.module_loading import import_string

from config.settings import channel_prefix_for, redis_services


def test_each_database_has_channels_of_its_own():
    assert channel_prefix_for("redis://127.0.0.1:6379") == "switchback"
    assert channel_prefix_for("redis://127.0.0.1:6379/0") == "switchback"
    assert channel_prefix_for("redis://127.0.0.1:6379/3") == "switchback-db3"


@pytest.mark.redis
@pytest.mark.asyncio
async def test_a_push_on_one_database_is_not_heard_on_another():
    parts = urlsplit(settings.REDIS_URL)
    base = int(parts.path.strip("/") or 0)
    layers = []
    for database in (base + 7, base + 8):
        config = redis_services(urlunsplit(parts._replace(path=f"/{database}")))[1]["default"]
        layers.append(import_string(config["BACKEND"])(**config["CONFIG"]))
    here, there = layers
    group = f"game-{uuid.uuid4().hex[:12]}-spectators"   # no other test's group, on either database
    listening_here, listening_there = await here.new_channel(), await there.new_channel()
    await here.group_add(group, listening_here)
    await there.group_add(group, listening_there)
    try:
        await here.group_send(group, {"type": "game.panel", "html": "here"})
        assert (await asyncio.wait_for(here.receive(listening_here), 5))["html"] == "here"
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(there.receive(listening_there), 0.5)
    finally:
        await here.group_discard(group, listening_here)
        await there.group_discard(group, listening_there)
        for layer in layers:
            await layer.flush()
