"""What a wrong password costs the server, before and after the login lock (issue 13, 4).

    .venv/bin/python -m bench.login_throttle [--requests 20]

With the production password hasher (PBKDF2, Django's default iterations), one public API
GET is timed with: no credentials (the floor), a wrong basic-auth password before the lock
(each one hashes), the same once the account/address is locked (refused before hashing),
and an API token. CPU seconds per request in this process, and the ratio to the floor.
Runs inside a transaction that is rolled back: nothing stays in the database.
"""

from __future__ import annotations

import argparse
import base64
import os
import statistics
import time


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("PAISAI_DEV", "1")
    import django

    django.setup()


def cpu_per_request(client, url: str, headers: dict, count: int) -> tuple[float, set[int]]:
    times, codes = [], set()
    for _ in range(count):
        start = time.process_time()
        codes.add(client.get(url, secure=True, **headers).status_code)
        times.append(time.process_time() - start)
    return statistics.median(times), codes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()
    setup_django()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from tournaments.models import Event

    print(
        f"hasher: {settings.PASSWORD_HASHERS[0].rsplit('.', 1)[-1]}; "
        f"lock after {settings.AXES_FAILURE_LIMIT} failures"
    )
    with transaction.atomic():
        user = get_user_model().objects.create_user("bench-login", password="right-password")
        token = Token.objects.create(user=user)
        event = Event.objects.create(
            name="bench", slug="bench-login", game="guandan", preset="guandan-suzhou-2016"
        )
        url = f"/api/tournaments/{event.slug}/teams/"
        client = Client()

        def basic(password):
            raw = base64.b64encode(f"bench-login:{password}".encode()).decode()
            return {"HTTP_AUTHORIZATION": f"Basic {raw}"}

        floor, _ = cpu_per_request(client, url, {}, args.requests)
        before, codes_before = cpu_per_request(
            client, url, basic("wrong"), settings.AXES_FAILURE_LIMIT - 1
        )
        client.get(url, secure=True, **basic("wrong"))  # the failure that locks
        locked, codes_locked = cpu_per_request(client, url, basic("wrong"), args.requests)
        tokened, _ = cpu_per_request(
            Client(REMOTE_ADDR="10.9.9.9"),
            url,
            {"HTTP_AUTHORIZATION": f"Token {token.key}"},
            args.requests,
        )
        transaction.set_rollback(True)
    rows = [
        ("no credentials (floor)", floor, ""),
        ("wrong password, not locked", before, codes_before),
        ("wrong password, locked", locked, codes_locked),
        ("API token", tokened, ""),
    ]
    for label, seconds, codes in rows:
        print(
            f"{label:30s} {seconds * 1000:8.1f} ms CPU/request  {seconds / floor:6.1f}x floor"
            f"  {sorted(codes) if codes else ''}"
        )
    print(f"locked / not locked: {locked / before:.3f}")


if __name__ == "__main__":
    main()
