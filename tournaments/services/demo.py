"""Demo data for `make run`: a Guandan event with 24 teams from 6 units and a login per role."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

from tournaments.models import Event, EventRole, Player, Role, TableAssignment, Team, Unit
from tournaments.services import rounds

DEMO_SLUG = "demo-guandan"
DEMO_PASSWORD = "paisai-demo"
DEMO_DRAW_SEED = 2026
UNITS = ["苏州棋牌协会", "南京掼蛋俱乐部", "无锡体育总会", "常州老年大学", "南通电力", "扬州银行"]
SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
)
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰"

# (username, display name, role, tables or team index, description). Pages show the display
# name (User.first_name, edited in the admin); the username is the login.
DEMO_USERS = [
    ("organiser", "钱组委", Role.ORGANISER, None, "organiser 组委会"),
    ("chief", "沈裁判长", Role.CHIEF_REFEREE, None, "chief referee 裁判长"),
    ("referee1", "陆一鸣", Role.TABLE_REFEREE, range(1, 7), "table referee 临场裁判, tables 1–6"),
    ("referee2", "顾晓东", Role.TABLE_REFEREE, range(7, 13), "table referee 临场裁判, tables 7–12"),
    ("committee1", "范仲文", Role.COMMITTEE, None, "arbitration committee 仲裁委员"),
    ("committee2", "吕思远", Role.COMMITTEE, None, "arbitration committee 仲裁委员"),
    ("committee3", "施慧琴", Role.COMMITTEE, None, "arbitration committee 仲裁委员"),
    ("captain1", "金建国", Role.CAPTAIN, 0, "captain 队长 of the first team"),
    ("captain2", "魏春华", Role.CAPTAIN, 1, "captain 队长 of the second team"),
]
DISPLAY_NAMES = {"admin": "管理员"} | {row[0]: row[1] for row in DEMO_USERS}


def _user(username: str, *, superuser: bool = False):
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=username)
    if not user.first_name:
        user.first_name = DISPLAY_NAMES.get(username, "")
    if created or not user.has_usable_password():
        user.set_password(DEMO_PASSWORD)
    user.is_staff = user.is_staff or superuser
    user.is_superuser = user.is_superuser or superuser
    user.save()
    return user


@transaction.atomic
def load_demo() -> list[tuple[str, str, str]]:
    """Create (or refresh) the demo event. Returns (username, password, what) for printing."""
    logins = [("admin", DEMO_PASSWORD, "superuser: Django admin /admin/")]
    _user("admin", superuser=True)
    organiser = _user("organiser")
    organiser.user_permissions.add(Permission.objects.get(codename="add_event"))
    event, created = Event.objects.get_or_create(
        slug=DEMO_SLUG,
        defaults=dict(
            name="2026 苏州掼蛋精英赛 (演示)",
            game="guandan",
            preset="guandan-suzhou-2016",
            num_rounds=7,
            round_minutes=90,
            venue="苏州",
            created_by=organiser,
        ),
    )
    if created:
        units = [Unit.objects.create(event=event, name=name) for name in UNITS]
        n = 0
        for u_index, unit in enumerate(units):
            for k in range(4):
                n += 1
                team = Team.objects.create(
                    event=event,
                    name=f"{unit.name[:2]}{'一二三四'[k]}队",
                    unit=unit,
                    seed=n if k == 0 else None,
                )
                for seat in (1, 2):
                    i = (u_index * 8 + k * 2 + seat) % len(SURNAMES)
                    Player.objects.create(
                        team=team,
                        seat_order=seat,
                        name=SURNAMES[i] + GIVEN[(i * 7 + seat) % len(GIVEN)],
                    )
    teams = list(Team.objects.filter(event=event).order_by("pk"))
    for username, _name, role, extra, what in DEMO_USERS:
        user = _user(username)
        team = teams[extra] if role == Role.CAPTAIN else None
        EventRole.objects.get_or_create(user=user, event=event, role=role, defaults={"team": team})
        if role == Role.TABLE_REFEREE:
            for table in extra:
                TableAssignment.objects.get_or_create(event=event, user=user, table_number=table)
        logins.append((username, DEMO_PASSWORD, what + (f" ({team.name})" if team else "")))
    if not event.rounds.exists():  # round 1 drawn (recorded seed), published and started
        rnd = rounds.generate_draft(event, organiser, seed=DEMO_DRAW_SEED)
        rnd = rounds.start_clock(rounds.publish(rnd, organiser), organiser)
        _demo_results(rnd, get_user_model().objects.get(username="chief"))
    return logins


def _demo_results(rnd, chief) -> None:
    """Tables 7-12 have confirmed results (so standings and team pages show something);
    tables 1-6 wait for referee1 to enter theirs."""
    from . import result_entry, results

    chance = random.Random(DEMO_DRAW_SEED)
    seats = ["E", "S", "W", "N"]
    actor = results.Actor(chief, None, "web", "demo")
    for match in rnd.matches.filter(table_number__gte=7).order_by("table_number"):
        deals = [{"finish": chance.sample(seats, 4)} for _ in range(4)]
        record = {"game": rnd.event.game, "deals": deals}
        result_entry.submit(match, record, actor, 0, confirm=True, note="demo")
